import { beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../../lambda/json/json-text.js';
import { sharedChromium } from '../../../support/console-browser.js';
import { atPhoneWidth, pageScrollWidth, phoneWidth } from '../../../support/console-pages.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { transaction } from '../../../support/fixtures.js';

const browser = sharedChromium();

/**
 * The pages with the widest content, filled (a conflict, a refusal, the bulk forms, badges and
 * times), at a phone's width: tables scroll inside their frame, the page itself never sideways.
 * The empty sections are checked by console-accessibility.test.ts.
 */
describe('the console at 390 px and 1,920 px, with data', () => {
  const console = suiteConsole('dynalite');
  const paths: string[] = [];

  beforeAll(async () => {
    const stored = transaction({ amount: 1000, username: 'a.very.long.username.indeed' });
    expect(await console.deliver(stored)).toBe(204);
    expect(await console.deliver({ ...stored, amount: 1001 })).toBe(409);
    const refused = transaction({ currency: 'lira' });
    expect(await console.deliverBody(stringifyJson(refused))).toBe(422);
    const reference = encodeURIComponent(String(stored.reference));
    const page = await console.signedIn(browser, '/refusals');
    const refusal = await page.locator('#refusals a.mono').getAttribute('href');
    await page.close();
    paths.push(
      '/transactions',
      // The transaction's page, each tab: the conflict and the events are tabs of their own.
      `/transactions/${reference}`,
      ...['exchange', 'history', 'conflicts', 'events'].map(
        (tab) => `/transactions/${reference}?tab=${tab}`,
      ),
      '/conflicts',
      `/conflicts/${reference}`,
      '/refusals',
      refusal ?? '/refusals/none',
    );
  });

  it('scrolls no page sideways', async () => {
    const page = await console.signedIn(browser, '/transactions');
    await atPhoneWidth(page);
    const widths: Record<string, number> = {};
    for (const path of paths) {
      const answer = await page.goto(`${console.server.origin}${path}`);
      expect(answer?.status()).toBe(200);
      widths[path] = await pageScrollWidth(page);
    }
    expect(Object.keys(widths)).toHaveLength(10);
    const wider = Object.entries(widths).filter(([, width]) => width <= 0 || width > phoneWidth);
    expect(wider).toEqual([]);
    await page.close();
  });

  it('scrolls no page sideways at 1,920 px either', async () => {
    const page = await console.signedIn(browser, '/transactions');
    await page.setViewportSize({ width: 1920, height: 1080 });
    const wider: string[] = [];
    for (const path of paths) {
      await page.goto(`${console.server.origin}${path}`);
      if ((await pageScrollWidth(page)) > 1920) wider.push(path);
    }
    expect(wider).toEqual([]);
    await page.close();
  });
});
