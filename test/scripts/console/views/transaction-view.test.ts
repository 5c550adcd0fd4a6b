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
 * One transaction's page: its summary and tabs, its fields, the delivery that recorded it and its
 * headers. Its history, conflicts and events are in transaction-sections.test.ts, local delivery
 * of the events in event-delivery.test.ts.
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

/** Loads one tab of the transaction's page in `page`, as its link in the tabs would. */
async function goTo(page: Page, reference: string, tab: string): Promise<void> {
  const path = `/transactions/${encodeURIComponent(reference)}?tab=${tab}`;
  expect((await page.goto(new URL(path, page.url()).href))?.status()).toBe(200);
}

/** The tabs' links as [name, href, aria-current]. */
function tabsOf(page: Page): Promise<[string, string, string | null][]> {
  return page
    .getByRole('navigation', { name: 'Transaction tabs' })
    .getByRole('link')
    .evaluateAll((links) =>
      links.map((link) => [
        link.textContent ?? '',
        link.getAttribute('href') ?? '',
        link.getAttribute('aria-current'),
      ]),
    );
}

/** The id of the one panel heading the page shows (each tab's `h2` is named for the tab). */
function panelOf(page: Page): Promise<string[]> {
  return page
    .locator('section.tab-panel > h2')
    .evaluateAll((headings) => headings.map((heading) => heading.id));
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
      const seen: string[] = [await page.content()];

      const fieldRows = await rowsOf(page, '#fields + .table-wrap table');
      expect(fieldRows.map(([name]) => name)).toEqual(Object.keys(orderAttributes(stored)));
      const value = (name: string) => fieldRows.find(([row]) => row === name)?.[1];
      expect(value('amount')).toBe('123456789012345678901234');
      expect(value('id')).toBe('9007199254740993');
      expect(value('username')).toBe('deniz.kaya');
      await goTo(page, reference, 'exchange');
      seen.push(await page.content());
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
      for (const tab of ['history', 'conflicts', 'events']) {
        await goTo(page, reference, tab);
        seen.push(await page.content());
      }
      for (const html of seen) {
        expect(html).not.toContain(specKey);
        expect(html).not.toContain('s3cret');
        expect(html.toLowerCase()).not.toContain('x-api-key</th>');
      }
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

      const page = await transactionPage(
        console,
        browser,
        record.transaction.reference,
        'exchange',
      );

      expect(await page.locator('#exchange-headers + p').textContent()).toBe('None kept.');
      await page.close();
    });

    it('heads every tab with the summary, and links each tab to the page with ?tab=, the shown one marked', async () => {
      const fields = transaction({ amount: 1250, status: 'Reject', type: 'Withdrawal' });
      const reference = String(fields.reference);
      expect(await console.deliver(fields)).toBe(204);
      const path = `/transactions/${encodeURIComponent(reference)}`;

      const page = await transactionPage(console, browser, reference);

      const summary = page.getByRole('region', { name: 'Summary' });
      expect(await summary.locator('.summary-reference code').textContent()).toBe(reference);
      const facts = await summary
        .locator('dl.summary-facts > div')
        .evaluateAll((rows) =>
          rows.map((row) => [
            row.querySelector('dt')?.textContent ?? '',
            row.querySelector('dd')?.textContent ?? '',
          ]),
        );
      expect(facts.map(([term]) => term)).toEqual([
        'Status',
        'Amount',
        'Type',
        'Username',
        'Received',
      ]);
      expect(Object.fromEntries(facts)).toMatchObject({
        Status: 'Reject',
        Amount: '1250 TRY',
        Type: 'Withdrawal',
        Username: 'deniz.kaya',
        Received: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      });
      expect(await summary.locator('.badge.bad').textContent()).toBe('Reject');
      const tabs = [
        ['Fields', path, 'page'],
        ['Exchange', `${path}?tab=exchange`, null],
        ['History 1', `${path}?tab=history`, null],
        ['Conflicts 0', `${path}?tab=conflicts`, null],
        ['Events 1', `${path}?tab=events`, null],
      ];
      expect(await tabsOf(page)).toEqual(tabs);
      expect(await panelOf(page)).toEqual(['fields']);
      // Only the shown tab's panel is drawn.
      expect(await page.locator('dl.exchange, table.history, table.events').count()).toBe(0);

      for (const [index, tab] of ['exchange', 'history', 'conflicts', 'events'].entries()) {
        await goTo(page, reference, tab);
        expect(await summary.locator('.summary-reference code').textContent()).toBe(reference);
        const current = (await tabsOf(page)).filter(([, , marked]) => marked === 'page');
        expect(current.map(([name]) => name)).toEqual([tabs[index + 1]?.[0]]);
        expect(await panelOf(page)).toEqual([tab]);
        expect(await page.locator('#fields').count()).toBe(0);
      }
      await page.close();
    });

    it('moves between tabs by keyboard, and back and forward through them', async () => {
      const fields = transaction();
      const reference = String(fields.reference);
      expect(await console.deliver(fields)).toBe(204);
      const page = await transactionPage(console, browser, reference);
      const nav = page.getByRole('navigation', { name: 'Transaction tabs' });

      for (const [name, tab] of [
        ['Exchange', 'exchange'],
        ['History', 'history'],
      ]) {
        const link = nav.getByRole('link', { name: new RegExp(`^${name}`) });
        await link.focus();
        // The focus drawn, as the stylesheet's :focus-visible rule draws it for the keyboard.
        expect(
          await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle'),
        ).toBe('solid');
        await Promise.all([
          page.waitForURL((url) => url.searchParams.get('tab') === tab),
          page.keyboard.press('Enter'),
        ]);
        expect(await panelOf(page)).toEqual([tab]);
      }
      expect(await page.locator('table.history tbody tr').count()).toBe(1);

      await page.goBack();
      expect(new URL(page.url()).searchParams.get('tab')).toBe('exchange');
      expect(await panelOf(page)).toEqual(['exchange']);
      await page.goBack();
      expect(new URL(page.url()).search).toBe('');
      expect(await panelOf(page)).toEqual(['fields']);
      await page.goForward();
      expect(await panelOf(page)).toEqual(['exchange']);
      expect(await nav.locator('[aria-current="page"]').textContent()).toBe('Exchange');
      await page.close();
    });

    it('shows the fields tab for a tab it does not have, never an error', async () => {
      const fields = transaction();
      const reference = String(fields.reference);
      expect(await console.deliver(fields)).toBe(204);
      const page = await transactionPage(console, browser, reference);

      for (const asked of [
        'nope',
        'Exchange',
        '__proto__',
        'constructor',
        '<script>x</script>',
        '',
      ]) {
        const answer = await page.goto(
          `${console.server.origin}/transactions/${encodeURIComponent(reference)}?tab=${encodeURIComponent(asked)}`,
        );
        expect(answer?.status(), asked).toBe(200);
        expect(await panelOf(page), asked).toEqual(['fields']);
        expect(
          await page
            .getByRole('navigation', { name: 'Transaction tabs' })
            .locator('[aria-current]')
            .textContent(),
        ).toBe('Fields');
        expect(await page.content()).not.toContain('<script>x');
      }
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
