import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { describe, expect, it } from 'vitest';
import { eventForRecord, putEventsEntry } from '../../../../lambda/events/stream-record-event.js';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import { sharedChromium, type TestConsole } from '../../../support/console-browser.js';
import { transactionPage } from '../../../support/console-pages.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { engineClientConfig, forEachEngine } from '../../../support/engines.js';
import { signed, transaction } from '../../../support/fixtures.js';
import { readStream } from '../../../support/table-stream.js';

/** The transaction page's history, conflicts and events tabs, each linking to the others. */
const browser = sharedChromium();

forEachEngine((engine) => {
  describe('the transaction view', () => {
    const console = suiteConsole(engine);

    it('shows a conflict, then a settled correction in the history and the events it published', async () => {
      const stored = transaction({ amount: 1000 });
      const received = { ...stored, amount: 1250 };
      const reference = String(stored.reference);
      expect(await console.deliver(stored, { 'X-Origin': 'first' })).toBe(204);
      expect(await console.deliver(received, { 'X-Origin': 'second' })).toBe(409);

      let page = await transactionPage(console, browser, reference, 'conflicts');
      // Every tab's summary says a conflict waits, and links to this tab.
      const facts = page.locator('dl.summary-facts');
      expect(await facts.locator('div', { hasText: 'Conflicts' }).locator('dd').textContent()).toBe(
        '1 open',
      );
      const conflict = page.locator('section.conflict');
      expect(await conflict.count()).toBe(1);
      expect(await conflict.locator('dl.exchange').innerText()).toContain('conflict (409)');
      expect(await conflict.locator('td.differs').allTextContents()).toEqual([
        '1250 (stored: 1000)',
      ]);
      expect(await conflict.locator('table.headers').innerText()).toContain('second');
      expect(await conflict.locator('pre.raw-body').textContent()).toBe(signed(received));
      await page.close();
      page = await transactionPage(console, browser, reference, 'events');
      expect(await page.locator('table.events tbody tr td:first-child').allTextContents()).toEqual([
        'Transaction Completed',
        'Transaction Conflict',
      ]);
      await page.close();

      await settleConflict(console.table, {
        reference,
        decision: {
          accept: 'received',
          actor: 'local:ops-a',
          reason: 'ticket OPS-7: gateway confirms 1250',
          at: new Date().toISOString(),
        },
      });

      page = await transactionPage(console, browser, reference, 'history');
      const summary = page.locator('dl.summary-facts');
      expect(
        await summary.locator('div', { hasText: 'Conflicts' }).locator('dd').textContent(),
      ).toBe('1 settled');
      expect(
        await summary.locator('div', { hasText: 'Corrected' }).locator('dd').textContent(),
      ).toMatch(/^version 2, \d{4}-/);
      const history = page.locator('table.history tbody tr');
      expect(await history.count()).toBe(2);
      expect(await history.nth(0).locator('td').allTextContents()).toMatchObject([
        '1',
        expect.any(String),
        'gateway',
        'first delivery',
        '',
        expect.any(String),
      ]);
      const second = await history.nth(1).locator('td').allTextContents();
      expect(second.slice(0, 3)).toEqual(['2 (current)', expect.any(String), 'local:ops-a']);
      expect(second[3]).toContain('ticket OPS-7');
      expect(second[4]).toBe('amount: 1000 → 1250');
      // The first delivery is kept with version 1, its disclosure opened by keyboard.
      await page.locator('#version-1-exchange summary').focus();
      await page.keyboard.press('Enter');
      expect(await page.locator('#version-1-exchange').getAttribute('open')).toBe('');
      expect(await page.locator('#version-1-exchange pre.raw-body').textContent()).toBe(
        signed(stored),
      );
      expect(await page.locator('#version-1-exchange table.headers').innerText()).toContain(
        'first',
      );
      // Version 2 came from the conflict: its fingerprint links to it in the Conflicts tab, and
      // the conflict back to the version in the History tab.
      const link = history.nth(1).locator('a');
      const href = await link.getAttribute('href');
      const path = `/transactions/${encodeURIComponent(reference)}`;
      expect(href).toMatch(new RegExp(`^${path}\\?tab=conflicts#conflict-[0-9a-f]{12}$`));
      const anchor = `#${href?.split('#')[1]}`;
      // By keyboard: the link needs no pointer.
      await link.focus();
      await Promise.all([
        page.waitForURL((url) => url.hash === anchor),
        page.keyboard.press('Enter'),
      ]);
      expect(new URL(page.url()).hash).toBe(anchor);
      expect(await page.locator(`${anchor} dl.exchange`).innerText()).toContain(
        'accepted as version 2',
      );
      expect(
        await page
          .locator(anchor)
          .getByRole('link', { name: 'see version 2' })
          .getAttribute('href'),
      ).toBe(`${path}?tab=history#version-2`);
      // The current delivery is the accepted one.
      await page.close();
      page = await transactionPage(console, browser, reference, 'exchange');
      expect(await page.locator('#exchange-body + pre').textContent()).toBe(signed(received));
      await page.close();
      page = await transactionPage(console, browser, reference, 'events');
      const events = page.locator('table.events tbody tr');
      expect(await events.locator('td:first-child').allTextContents()).toEqual([
        'Transaction Completed',
        'Transaction Conflict',
        'Transaction Corrected',
      ]);
      const details = (await events.locator('pre').allTextContents()).map((text) =>
        JSON.parse(text),
      );
      expect(details[0]).toMatchObject({ amount: '1000' });
      expect(details[2]).toMatchObject({
        version: 2,
        before: { amount: '1000' },
        after: { amount: '1250' },
      });
      if (engine === 'dynamodb-local') {
        // The page's events are the ones the real stream's records make, detail for detail.
        expect(details).toEqual(await streamedDetails(console, reference));
      }
      await page.close();
    });
  });
});

/** Every event detail the table's real stream yields for a reference, in stream order. */
async function streamedDetails(console: TestConsole, reference: string): Promise<unknown[]> {
  const { client, tableName } = console.table;
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const streams = new DynamoDBStreamsClient(engineClientConfig('dynamodb-local'));
  try {
    const records = await readStream(streams, String(Table?.LatestStreamArn));
    return records.flatMap((record) => {
      const event = eventForRecord(record);
      if (event === undefined || event.detail.reference !== reference) return [];
      return [JSON.parse(String(putEventsEntry(event, 'bus').Detail))];
    });
  } finally {
    streams.destroy();
  }
}
