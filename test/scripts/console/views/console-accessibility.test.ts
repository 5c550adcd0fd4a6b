import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Hono } from 'hono';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleContext, ConsoleEnv } from '../../../../scripts/console/console-context.js';
import { sections } from '../../../../scripts/console/html/layout.js';
import { consoleViews } from '../../../../scripts/console/views/console-views.js';
import { createActivityRecorder } from '../../../../scripts/local/activity-recorder.js';
import {
  sharedChromium,
  startTestConsole,
  type TestConsole,
} from '../../../support/console-browser.js';
import { atPhoneWidth, pageScrollWidth, phoneWidth } from '../../../support/console-pages.js';
import { engines } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';

/**
 * The navigation lists every section (html/layout.ts); a section's view joins console-views.ts
 * when it is built. These checks run on every section whose view is registered, and each one
 * still missing is listed as a todo by name: visible in the run, never skipped silently, and
 * checked as soon as its view lands.
 */
const gets = (() => {
  const app = new Hono<ConsoleEnv>();
  // Registering routes reads no table: a client that is never used is enough.
  const client = new DynamoDBClient({ region: 'us-east-1' });
  const context: ConsoleContext = {
    tables: { client, tableName: 'unused', refusalsTableName: 'unused', description: '' },
    mode: 'local',
    allowActions: true,
  };
  for (const view of consoleViews) view(app, context);
  client.destroy();
  return app.routes.filter((route) => route.method === 'GET').map((route) => route.path);
})();
const registered = sections.filter((section) => gets.includes(section.path));
const missing = sections.filter((section) => !gets.includes(section.path));

/** Everything that takes the keyboard, inside `main`, as a person would see it. */
const focusables =
  'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';

const browser = sharedChromium();
let console: TestConsole;
beforeAll(async () => {
  // Layout and keyboard do not depend on the engine (the views' own tests run on both).
  // With figures, so the Activity view lays out its charts and tables, not its empty notice.
  const activity = createActivityRecorder();
  for (const [status, outcome, ms] of [
    [204, 'recorded', 12],
    [204, 'duplicate', 9],
    [409, 'conflict', 15],
    [403, undefined, 4],
  ] as const) {
    activity.record({ status, outcome, ms });
  }
  console = await startTestConsole(engines[0] as (typeof engines)[number], { activity });
  const first = transaction({ username: 'ana', message: 'Ödeme onaylandı' });
  for (const fields of [
    first,
    first, // a duplicate
    { ...first, amount: 1 }, // a conflict: same reference, other content
    transaction({ username: 'ben', type: 'Withdrawal', status: 'Reject' }),
    // A long unbroken value: the table scrolls inside .table-wrap, never the page.
    transaction({ username: `user-${'x'.repeat(120)}`, message: 'y'.repeat(300) }),
  ]) {
    await console.deliver(fields);
  }
});
afterAll(() => console?.close());

describe('the console, by keyboard and at 390 px', () => {
  it('has a view for at least the transactions section', () => {
    expect(registered.map((section) => section.path)).toContain('/transactions');
  });

  for (const section of missing) {
    it.todo(`${section.title} (${section.path}): no view registered yet, checked once it is`);
  }

  describe.each(registered)('$title', ({ path }) => {
    it('reaches the skip link first, and Enter on it moves focus to the content', async () => {
      const page = await console.signedIn(browser, path);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toMatchObject({ text: 'Skip to content', inViewport: true });
      await page.keyboard.press('Enter');
      expect((await focused(page)).id).toBe('main');
      await page.close();
    });

    it('reaches every navigation link and every control by Tab, each with a visible focus', async () => {
      const page = await console.signedIn(browser, path);
      // Browser-side code is a string: the project's TypeScript has no DOM types.
      const expected = await page.evaluate<string[]>(
        `[...document.querySelectorAll('nav a[href], main :is(${focusables})')]
          .filter((el) => el.offsetParent !== null)
          .map((el) => el.outerHTML.slice(0, 120))`,
      );
      const reached: Focus[] = [];
      for (let presses = 0; presses < expected.length + 10; presses += 1) {
        await page.keyboard.press('Tab');
        const now = await focused(page);
        if (now.tag === 'BODY' || reached.some((seen) => seen.html === now.html)) break;
        reached.push(now);
      }
      for (const sectionLink of sections) {
        expect(reached.map((f) => f.href)).toContain(sectionLink.path);
      }
      expect(reached.map((f) => f.html)).toEqual(expect.arrayContaining(expected));
      for (const focus of reached) expect(focus.visibleFocus, focus.html).toBe(true);
      await page.close();
    });

    // What assistive technology is shown: a chart drawn for the eye alone (aria-hidden, its
    // figures written out as tables beside it) is left out.
    it('gives every input, select and textarea a name, and every th a scope', async () => {
      const page = await console.signedIn(browser, path);
      const unnamed = await page.evaluate<string[]>(
        `[...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
          .filter((el) => !el.closest('[aria-hidden="true"]'))
          .filter((el) => {
            const labelled = (el.labels?.length ?? 0) > 0 ||
              el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby');
            const text = el.tagName === 'BUTTON' && el.textContent.trim();
            return !labelled && !text;
          })
          .map((el) => el.outerHTML)`,
      );
      expect(unnamed).toEqual([]);
      const unscoped = await page.evaluate<string[]>(
        `[...document.querySelectorAll('th:not([scope])')]
          .filter((el) => !el.closest('[aria-hidden="true"]'))
          .map((el) => el.outerHTML)`,
      );
      expect(unscoped).toEqual([]);
      await page.close();
    });

    it('fits 390 px wide: no horizontal page scroll', async () => {
      const page = await console.signedIn(browser, path);
      await atPhoneWidth(page);
      const width = await pageScrollWidth(page);
      expect(width).toBeGreaterThan(0);
      expect(width).toBeLessThanOrEqual(phoneWidth);
      await page.close();
    });
  });

  it('submits the transactions filter with Enter, from the keyboard alone', async () => {
    const page = await console.signedIn(browser, '/transactions');
    for (let presses = 0; presses < 30; presses += 1) {
      await page.keyboard.press('Tab');
      if ((await focused(page)).name === 'username') break;
    }
    expect((await focused(page)).name).toBe('username');
    await page.keyboard.type('ben');
    await Promise.all([page.waitForURL(/username=ben/), page.keyboard.press('Enter')]);
    expect(await page.locator('#rows tr').count()).toBe(1);
    await page.close();
  });
});

interface Focus {
  readonly tag: string;
  readonly id: string;
  readonly name: string;
  readonly href: string | null;
  readonly text: string;
  readonly html: string;
  readonly inViewport: boolean;
  /** An outline or a shadow drawn around it, as the stylesheet's :focus-visible rules give. */
  readonly visibleFocus: boolean;
}

function focused(page: Page): Promise<Focus> {
  return page.evaluate<Focus>(`(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      tag: el.tagName,
      id: el.id,
      name: el.getAttribute('name') ?? '',
      href: el.getAttribute('href'),
      text: el.textContent.trim(),
      html: el.outerHTML.slice(0, 120),
      inViewport: box.left >= 0 && box.top >= 0 && box.right <= innerWidth,
      visibleFocus: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) ||
        style.boxShadow !== 'none',
    };
  })()`);
}
