import type { Browser, Page } from 'playwright-core';
import type { TestConsole } from './console-browser.js';

/** The page of the transaction recorded under `reference`, signed in; `tab`, one of its tabs. */
export function transactionPage(
  console: TestConsole,
  browser: Browser,
  reference: string,
  tab?: string,
): Promise<Page> {
  const query = tab === undefined ? '' : `?tab=${encodeURIComponent(tab)}`;
  return console.signedIn(browser, `/transactions/${encodeURIComponent(reference)}${query}`);
}

/**
 * Does `act` (a click, a key press) and waits for the POST it sends and the page the answer
 * loads; resolves to the POST's status.
 */
export async function postedBy(page: Page, act: () => Promise<unknown>): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((answer) => answer.request().method() === 'POST'),
    act(),
  ]);
  await page.waitForLoadState();
  return response.status();
}

/** Clicks the form's button named `button`; resolves to the status of the POST it sends. */
export function clickToPost(page: Page, button: string): Promise<number> {
  return postedBy(page, () => page.getByRole('button', { name: button }).click());
}

/** A phone's width, the narrowest the console is laid out for. */
export const phoneWidth = 390;

/** Makes the page a phone's width (390 x 800 px). */
export function atPhoneWidth(page: Page): Promise<void> {
  return page.setViewportSize({ width: phoneWidth, height: 800 });
}

/** How wide the page scrolls: at most the viewport's width when nothing overflows it. */
export function pageScrollWidth(page: Page): Promise<number> {
  return page.evaluate<number>('document.scrollingElement.scrollWidth');
}

/**
 * POSTs `form` to `url` as the page's own form would (its origin and CSRF token), though the
 * page offers none: what a console that does not allow the action must still refuse.
 */
export async function forgedPost(
  page: Page,
  url: string,
  form: Record<string, string> = {},
): Promise<number> {
  const token = await page.locator('meta[name="csrf-token"]').getAttribute('content');
  // From inside the page, so the browser sends its own Origin and cookie, and resolves the
  // console's `.localhost` name itself (Node, where page.request runs, may not).
  return page.evaluate(
    async ({ url, fields }) =>
      (await fetch(url, { method: 'POST', body: new URLSearchParams(fields) })).status,
    { url, fields: { _csrf: token ?? '', ...form } },
  );
}
