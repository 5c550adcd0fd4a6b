import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { acceptedKey } from '../../../../lambda/auth/accepted-keys.js';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import { orderAttributes } from '../../../../scripts/table/stored-item.js';
import { getTransaction } from '../../../../scripts/table/transaction-queries.js';
import { sharedChromium } from '../../../support/console-browser.js';
import { transactionPage } from '../../../support/console-pages.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { forEachEngine } from '../../../support/engines.js';
import { signed, specKey, transaction } from '../../../support/fixtures.js';
import { recordOf } from '../../../support/stream-records.js';

/**
 * One transaction's page: its fields, the delivery that recorded it and its headers. Its history,
 * conflicts and events are in transaction-sections.test.ts, local delivery of the events in
 * event-delivery.test.ts.
 */
const browser = sharedChromium();

/** The text of each cell of a table's rows, by the row's header cell. */
async function rowsOf(page: Page, table: string): Promise<[string, string][]> {
  return page
    .locator(`${table} tbody tr`)
    .evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector('th')?.textContent ?? '',
        row.querySelector('td')?.textContent ?? '',
      ]),
    );
}

forEachEngine((engine) => {
  describe('the transaction view', () => {
    const console = suiteConsole(engine);

    it('shows every field in the CLI order with exact digits, the raw body, and headers without credentials', async () => {
      const fields = transaction({ id: 9007199254740993n, amount: 123456789012345678901234n });
      const reference = String(fields.reference);
      const headers = { 'X-Gateway-Attempt': '3', Authorization: 'Bearer s3cret-token' };
      expect(await console.deliver(fields, headers)).toBe(204);
      const stored = (await getTransaction(console.table, reference)).transaction ?? {};

      const page = await transactionPage(console, browser, reference);

      const fieldRows = await rowsOf(page, '#fields + .table-wrap table');
      expect(fieldRows.map(([name]) => name)).toEqual(Object.keys(orderAttributes(stored)));
      const value = (name: string) => fieldRows.find(([row]) => row === name)?.[1];
      expect(value('amount')).toBe('123456789012345678901234');
      expect(value('id')).toBe('9007199254740993');
      expect(value('username')).toBe('deniz.kaya');
      expect(await page.locator('#exchange-body + pre').textContent()).toBe(signed(fields));
      const exchange = await page.locator('dl.exchange').first().innerText();
      for (const shown of [
        'recorded (204)',
        acceptedKey(specKey).id,
        'verified',
        String(stored.requestId),
        '203.0.113.7',
      ]) {
        expect(exchange).toContain(shown);
      }
      const headerRows = await rowsOf(page, 'table.headers');
      expect(headerRows).toEqual([
        ['Content-Type', 'application/json'],
        ['X-Gateway-Attempt', '3'],
      ]);
      const html = await page.content();
      expect(html).not.toContain(specKey);
      expect(html).not.toContain('s3cret');
      expect(html.toLowerCase()).not.toContain('x-api-key</th>');
      // One event: the hand-off, as the stack publishes it.
      const eventCells = await page
        .locator('table.events tbody tr td:first-child')
        .allTextContents();
      expect(eventCells).toEqual(['Transaction Completed']);
      const detail = await page.locator('table.events pre').textContent();
      expect(JSON.parse(detail ?? '')).toMatchObject({
        reference,
        amount: '123456789012345678901234',
        id: '9007199254740993',
      });
      await page.close();
    });

    it('renders a hostile value as text: bidi override made visible, no script run', async () => {
      const fields = transaction({
        message:
          'paid \u202Egnp.exe <script>document.title="pwned"</script><img src=x onerror="document.title=1">',
      });
      expect(await console.deliver(fields)).toBe(204);

      const page = await transactionPage(console, browser, String(fields.reference));

      const message = page
        .locator('#fields + .table-wrap tr', { hasText: 'message' })
        .locator('td');
      const text = await message.textContent();
      expect(text).toBe(
        'paid U+202Egnp.exe <script>document.title="pwned"</script><img src=x onerror="document.title=1">',
      );
      expect(await message.locator('.unsafe').count()).toBe(1);
      expect(await page.locator('main script, main img').count()).toBe(0);
      expect(await page.title()).toBe('Transaction · Callback console');
      await page.close();
    });

    it('says the headers were not kept for a transaction recorded before they were', async () => {
      const record = recordOf(transaction());
      const store = new DynamoDbTransactionStore(console.table.client, console.table.tableName);
      expect(await store.putIfAbsent(record)).toEqual({ kind: 'created' });

      const page = await transactionPage(console, browser, record.transaction.reference);

      expect(await page.locator('#exchange-headers + p').textContent()).toBe('None kept.');
      await page.close();
    });

    it('answers an unknown reference with a 404 page that says so', async () => {
      const page = await browser.newPage();
      await page.goto(console.server.signInUrl());
      const response = await page.goto(
        `${console.server.origin}/transactions/${encodeURIComponent('no-such-ref/\u202E')}`,
      );
      expect(response?.status()).toBe(404);
      expect(await page.getByRole('alert').textContent()).toBe(
        'No transaction is recorded with the reference no-such-ref/U+202E. References are matched exactly, case included.',
      );
      await page.close();
    });
  });
});
