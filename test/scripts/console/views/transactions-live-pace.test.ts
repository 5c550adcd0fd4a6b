import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sharedChromium, type TestConsole } from '../../../support/console-browser.js';
import { readOnly, suiteConsole } from '../../../support/console-suite.js';
import { transaction } from '../../../support/fixtures.js';

const browser = sharedChromium();

/**
 * The Transactions tab on the page's own fake clock (Playwright's clock: the page's timers run
 * only when the test moves time on), so a minute of polling takes a second or two of real time.
 * Counts the live update's requests and when, in the page's time, each was sent.
 */
async function pacedTab(console: TestConsole) {
  const page = await console.signedIn(browser, '/conflicts');
  const start = Date.parse('2026-11-28T09:00:00Z');
  // Installed a little earlier, then paused at `start`: the page's time moves only when the
  // test moves it, so each poll's time is exact however slow the machine is.
  await page.clock.install({ time: start - 10_000 });
  await page.clock.pauseAt(start);
  await page.goto(`${console.server.origin}/transactions`);
  await page.locator('#live').waitFor({ state: 'attached' });
  // Counted in the page, on its own clock: when each poll was sent, and how many were answered.
  // (Page code as text: the tests are compiled without the DOM's types.)
  await page.evaluate(`(() => {
    window.sentAt = [];
    window.answered = 0;
    const polled = (event) => event.detail.pathInfo?.requestPath?.startsWith('/live/transactions');
    document.addEventListener('htmx:beforeRequest', (event) => {
      if (polled(event)) window.sentAt.push(Date.now());
    });
    document.addEventListener('htmx:afterRequest', (event) => {
      if (polled(event)) window.answered += 1;
    });
  })()`);
  const settled = () => page.evaluate<boolean>('window.answered === window.sentAt.length');
  /** When each poll was sent, in ms of the page's time since it loaded. */
  const sent: number[] = [];
  let now = 0;
  return {
    page,
    sent,
    /** Moves the page's time on by `ms`, a quarter second at a time, each poll answered in turn. */
    async run(ms: number, between?: () => Promise<unknown>) {
      for (let step = 0; step < ms; step += 250) {
        await between?.();
        now += 250;
        await page.clock.runFor(250);
        // Generous: on a loaded machine an answer can take seconds of real time.
        await expect.poll(settled, { timeout: 15_000 }).toBe(true);
      }
      const times = await page.evaluate<number[]>('window.sentAt');
      sent.splice(0, sent.length, ...times.map((at) => at - start));
    },
    /** The page's time since it loaded, in ms (the fake clock's steps). */
    now: () => now,
  };
}

/** What the Page Visibility API reports, as when the tab goes to the background and back. */
async function setVisibility(page: Page, state: 'hidden' | 'visible') {
  await page.evaluate(`(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
    document.dispatchEvent(new Event('visibilitychange'));
  })()`);
}

describe('the transactions view live update, paced for cost', { timeout: 120_000 }, () => {
  describe('in local mode', () => {
    const console = suiteConsole('dynalite');

    it('backs off from 1 s to 30 s while nothing changes: 5 polls in the first minute', async () => {
      expect(await console.deliver(transaction())).toBe(204);
      const tab = await pacedTab(console);
      await tab.run(60_000);
      // 1 s, then doubling: 2, 4, 8, 16 s (then 30 s, the ceiling, at 61 s).
      expect(tab.sent).toEqual([1_000, 3_000, 7_000, 15_000, 31_000]);
      await tab.run(60_000);
      expect(tab.sent.slice(5)).toEqual([61_000, 91_000]);
      await tab.page.close();
    });

    it('sends nothing while the tab is hidden, and polls again soon after it is shown', async () => {
      const tab = await pacedTab(console);
      await tab.run(1_000);
      expect(tab.sent).toEqual([1_000]);
      await setVisibility(tab.page, 'hidden');
      await tab.run(60_000);
      expect(tab.sent).toEqual([1_000]);
      await setVisibility(tab.page, 'visible');
      const shownAt = tab.now();
      await tab.run(1_000);
      expect(tab.sent).toEqual([1_000, shownAt + 1_000]);
      await tab.page.close();
    });

    it('goes back to fast on a change: a new row, then the next poll a second later', async () => {
      const tab = await pacedTab(console);
      await tab.run(16_000);
      expect(tab.sent).toEqual([1_000, 3_000, 7_000, 15_000]);
      const fields = transaction({ username: 'paced' });
      expect(await console.deliver(fields)).toBe(204);
      await tab.run(16_000);
      // The 31 s poll brings the row; the poll after it is 1 s later, not 30.
      expect(tab.sent.slice(4)).toEqual([31_000, 32_000]);
      expect(await tab.page.locator('#rows tr').first().textContent()).toContain(
        String(fields.reference),
      );
      await tab.page.close();
    });
  });

  describe('against a deployed table', () => {
    const console = suiteConsole('dynalite', readOnly);

    it('never polls more than once in 5 s, even while every poll brings a row', async () => {
      const tab = await pacedTab(console);
      let delivered = 0;
      // A new transaction before every quarter second: each poll finds a change.
      await tab.run(60_000, async () => {
        if (delivered < 12 && tab.now() % 5_000 === 4_750) {
          delivered += 1;
          expect(await console.deliver(transaction())).toBe(204);
        }
      });
      // Every 5 s, the minimum the server sets for a deployed table: 12 in the minute, not 60.
      expect(tab.sent).toEqual(Array.from({ length: 12 }, (_, index) => (index + 1) * 5_000));
      const gaps = tab.sent.slice(1).map((at, index) => at - (tab.sent[index] as number));
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(5_000);
      await tab.page.close();
    });

    it('backs off to 30 s when idle: 3 polls in the first minute, then 2 a minute', async () => {
      const tab = await pacedTab(console);
      await tab.run(120_000);
      expect(tab.sent).toEqual([5_000, 15_000, 35_000, 65_000, 95_000]);
      await tab.page.close();
    });
  });
});
