import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRefusalStore } from '../../../../lambda/refusals/dynamodb-refusal-store.js';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import { createActivityRecorder } from '../../../../scripts/local/activity-recorder.js';
import { startGatewayServer } from '../../../../scripts/local/gateway-server.js';
import { sharedChromium } from '../../../support/console-browser.js';
import { atPhoneWidth, pageScrollWidth, phoneWidth } from '../../../support/console-pages.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { forEachEngine } from '../../../support/engines.js';
import { signed, specKey, transaction } from '../../../support/fixtures.js';
import { receiverWith } from '../../../support/receiver.js';

const browser = sharedChromium();

/** Everything the page reports about its Content-Security-Policy, from both the DOM and the console. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  // A string: the test's TypeScript has no DOM types, and this runs in the page.
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) =>
      window.reportCspViolation(event.violatedDirective + ' ' + event.blockedURI));`,
  });
  return violations;
}

const cell = (page: Page, row: string) => page.locator(`tr[${row}] td.num`);

forEachEngine((engine) => {
  describe('the activity view', () => {
    const recorder = createActivityRecorder();
    // What the gateway answered: under load a first delivery whose write the SDK retried is
    // rightly answered `duplicate`, so the figures are checked against the answers themselves.
    const outcomes: (string | null)[] = [];
    const console = suiteConsole(engine, { activity: recorder });
    let gateway: Awaited<ReturnType<typeof startGatewayServer>>;
    beforeAll(async () => {
      const { table, refusals } = console;
      // Callbacks through the real local gateway, which feeds the recorder as `npm start` does.
      gateway = await startGatewayServer({
        invoke: receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), {
          refusals: new DynamoDbRefusalStore(refusals.client, refusals.tableName),
        }),
        host: '127.0.0.1',
        port: 0,
        stage: 'local',
        onAnswer: recorder.record,
      });
      const url = `http://127.0.0.1:${gateway.port}/callback`;
      const post = async (body: string, key = specKey) => {
        const answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body,
        });
        outcomes.push(answer.headers.get('x-callback-outcome'));
        return answer.status;
      };
      const first = transaction();
      const answers = [
        await post(signed(first)),
        await post(signed(transaction())),
        await post(signed(first)), // duplicate
        await post(signed({ ...first, amount: 1 })), // conflict
        await post(signed(transaction()), 'not-a-key'),
        await post(signed(transaction(), 'another-key')), // hash does not verify
        await post('{not json'),
      ];
      expect(answers).toEqual([204, 204, 204, 409, 401, 403, 400]);
    });
    afterAll(() => gateway?.close());

    it('draws both charts and tabulates every outcome, with no CSP violation', async () => {
      const page = await console.signedIn(browser, '/');
      const violations = await watchCsp(page);
      await page.goto(`${console.server.origin}/activity`);

      await page.locator('#chart-counts canvas').waitFor();
      await page.locator('#chart-latency canvas').waitFor();
      expect(await page.locator('#chart-status').isHidden()).toBe(true);
      const totals = Object.fromEntries(
        await page
          .locator('table.activity-totals tr[data-outcome]')
          .evaluateAll((rows) =>
            rows.map((row) => [
              row.getAttribute('data-outcome'),
              row.querySelector('td.num')?.textContent,
            ]),
          ),
      );
      const stored = (outcome: string) => String(outcomes.filter((o) => o === outcome).length);
      expect(Number(stored('recorded')) + Number(stored('duplicate'))).toBe(3);
      expect(totals).toEqual({
        recorded: stored('recorded'),
        duplicate: stored('duplicate'),
        conflict: '1',
        unauthorized: '1',
        hashRejected: '1',
        invalid: '1',
        failed: '0',
      });
      expect(Number(await cell(page, 'data-latency="p50"').textContent())).toBeGreaterThan(0);
      expect(Number(await cell(page, 'data-latency="p99"').textContent())).toBeGreaterThan(0);
      // The chart's legend lists the same classes the table does.
      expect(await page.locator('#chart-counts .u-legend .u-label').allTextContents()).toContain(
        'Refused: hash',
      );
      expect(violations).toEqual([]);
      await page.close();
    });

    it('writes the minutes out in a details table, and switches to the day by keyboard', async () => {
      const page = await console.signedIn(browser, '/activity');
      await page.getByText(/^Per minute/).click();
      const minutes = page.locator('.activity-minutes tbody tr');
      expect(await minutes.count()).toBeGreaterThanOrEqual(1);
      const perMinute = await minutes.evaluateAll((rows) =>
        rows.map((row) =>
          [...row.querySelectorAll('td.num')].slice(0, 7).map((td) => Number(td.textContent)),
        ),
      );
      // Seven callbacks, however the minutes fell.
      expect(perMinute.flat().reduce((sum, n) => sum + n, 0)).toBe(7);

      const day = page.getByRole('link', { name: 'Last day' });
      await day.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/range=day/);
      expect(await page.getByRole('link', { name: 'Last day' }).getAttribute('aria-current')).toBe(
        'page',
      );
      expect(await cell(page, 'data-outcome="recorded"').textContent()).toBe('2');
      await page.locator('#chart-counts canvas').waitFor();
      await page.close();
    });

    it('fits a 390 px wide screen without a horizontal page scroll', async () => {
      const page = await console.signedIn(browser, '/activity');
      await atPhoneWidth(page);
      await page.reload();
      await page.locator('#chart-counts canvas').waitFor();
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(phoneWidth);
      await page.close();
    });

    it('updates the charts and totals every 30 s without a reload (runs last: it adds callbacks)', async () => {
      const page = await console.signedIn(browser, '/');
      await page.clock.install();
      await page.goto(`${console.server.origin}/activity`);
      await page.locator('#chart-counts canvas').waitFor();
      expect(await cell(page, 'data-outcome="failed"').textContent()).toBe('0');

      recorder.record({ status: 503, outcome: undefined, ms: 40 });
      recorder.record({ status: 502, outcome: undefined, ms: 29_000 });
      await page.clock.runFor(30_000);

      await expect.poll(() => cell(page, 'data-outcome="failed"').textContent()).toBe('2');
      expect(await page.locator('[data-total]').textContent()).toBe('9 callbacks');
      // The slow answer moves the range's p99 into its bucket, about 29 s.
      const p99 = Number(await cell(page, 'data-latency="p99"').textContent());
      expect(p99).toBeGreaterThan(26_000);
      await page.close();
    });

    it('says the local figures start empty at each start', async () => {
      const page = await console.signedIn(browser, '/activity');
      expect(await page.locator('main').textContent()).toMatch(/start empty at each\s+start/);
      await page.close();
    });
  });

  describe('the activity view without a source', () => {
    const console = suiteConsole(engine);

    it('says there are no figures instead of drawing empty charts', async () => {
      const page = await console.signedIn(browser, '/activity');
      expect(await page.locator('main .notice').textContent()).toMatch(/No activity figures/);
      expect(await page.locator('canvas').count()).toBe(0);
      const data = await page.evaluate(async () => (await fetch('/activity/data')).status);
      expect(data).toBe(404);
      await page.close();
    });
  });

  describe('the activity view when its source fails', () => {
    const denied = Object.assign(
      new Error('User arn:aws:iam::123456789012:user/x is not authorized'),
      { name: 'AccessDeniedException' },
    );
    const console = suiteConsole(engine, { activity: { series: () => Promise.reject(denied) } });

    it('names the error, not its message, on the page and in the data', async () => {
      const page = await console.signedIn(browser, '/activity');
      const alert = await page.getByRole('alert').textContent();
      expect(alert).toMatch(/could not be read\s+\(AccessDeniedException\)/);
      expect(await page.locator('main').textContent()).not.toMatch(/123456789012/);
      const data = await page.evaluate<{ status: number; body: unknown }>(
        "fetch('/activity/data?range=day').then(async (r) => ({ status: r.status, body: await r.json() }))",
      );
      expect(data).toEqual({ status: 502, body: { error: 'AccessDeniedException' } });
      await page.close();
    });
  });
});
