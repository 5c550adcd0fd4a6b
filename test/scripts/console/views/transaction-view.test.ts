import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedKey } from '../../../../lambda/auth/accepted-keys.js';
import { eventForRecord, putEventsEntry } from '../../../../lambda/events/stream-record-event.js';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import { readDeadLetters } from '../../../../scripts/local/events/dead-letters.js';
import { eventFiles } from '../../../../scripts/local/events/event-files.js';
import { startEventForwarding } from '../../../../scripts/local/events/event-forwarding.js';
import { settleConflict } from '../../../../scripts/settle/settle.js';
import { orderAttributes } from '../../../../scripts/table/stored-item.js';
import { getTransaction } from '../../../../scripts/table/transaction-queries.js';
import {
  sharedChromium,
  startTestConsole,
  type TestConsole,
} from '../../../support/console-browser.js';
import { createTestClient, engineClientConfig, forEachEngine } from '../../../support/engines.js';
import { signed, specKey, transaction } from '../../../support/fixtures.js';
import { recordOf } from '../../../support/stream-records.js';
import { readStream } from '../../../support/table-stream.js';

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
    let console: TestConsole;
    const context = () => ({ client: console.table.client, tableName: console.table.tableName });
    const open = (reference: string) =>
      console.signedIn(browser, `/transactions/${encodeURIComponent(reference)}`);
    beforeAll(async () => {
      console = await startTestConsole(engine);
    });
    afterAll(() => console?.close());

    it('shows every field in the CLI order with exact digits, the raw body, and headers without credentials', async () => {
      const fields = transaction({ id: 9007199254740993n, amount: 123456789012345678901234n });
      const reference = String(fields.reference);
      const headers = { 'X-Gateway-Attempt': '3', Authorization: 'Bearer s3cret-token' };
      expect(await console.deliver(fields, headers)).toBe(204);
      const stored = (await getTransaction(context(), reference)).transaction ?? {};

      const page = await open(reference);

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

      const page = await open(String(fields.reference));

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

    it('shows a conflict, then a settled correction in the history and the events it published', async () => {
      const stored = transaction({ amount: 1000 });
      const received = { ...stored, amount: 1250 };
      const reference = String(stored.reference);
      expect(await console.deliver(stored, { 'X-Origin': 'first' })).toBe(204);
      expect(await console.deliver(received, { 'X-Origin': 'second' })).toBe(409);

      let page = await open(reference);
      const conflict = page.locator('section.conflict');
      expect(await conflict.count()).toBe(1);
      expect(await conflict.locator('dl.exchange').innerText()).toContain('conflict (409)');
      expect(await conflict.locator('td.differs').allTextContents()).toEqual([
        '1250 (stored: 1000)',
      ]);
      expect(await conflict.locator('table.headers').innerText()).toContain('second');
      expect(await conflict.locator('pre.raw-body').textContent()).toBe(signed(received));
      expect(await page.locator('table.events tbody tr td:first-child').allTextContents()).toEqual([
        'Transaction Completed',
        'Transaction Conflict',
      ]);
      await page.close();

      await settleConflict(context(), {
        reference,
        decision: {
          accept: 'received',
          actor: 'local:ops-a',
          reason: 'ticket OPS-7: gateway confirms 1250',
          at: new Date().toISOString(),
        },
      });

      page = await open(reference);
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
      // Version 2 came from the conflict: its fingerprint links there, and back.
      const link = history.nth(1).locator('a');
      const anchor = await link.getAttribute('href');
      expect(anchor).toMatch(/^#conflict-[0-9a-f]{12}$/);
      // By keyboard: the link and the earlier version's disclosure need no pointer.
      await link.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).hash).toBe(anchor);
      expect(await page.locator(`${anchor} dl.exchange`).innerText()).toContain(
        'accepted as version 2',
      );
      // The current delivery is the accepted one; the first one is kept with version 1.
      expect(await page.locator('#exchange-body + pre').textContent()).toBe(signed(received));
      await page.locator('#version-1-exchange summary').focus();
      await page.keyboard.press('Enter');
      expect(await page.locator('#version-1-exchange').getAttribute('open')).toBe('');
      expect(await page.locator('#version-1-exchange pre.raw-body').textContent()).toBe(
        signed(stored),
      );
      expect(await page.locator('#version-1-exchange table.headers').innerText()).toContain(
        'first',
      );
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

    it('says the headers were not kept for a transaction recorded before they were', async () => {
      const record = recordOf(transaction());
      const store = new DynamoDbTransactionStore(console.table.client, console.table.tableName);
      expect(await store.putIfAbsent(record)).toEqual({ kind: 'created' });

      const page = await open(record.transaction.reference);

      expect(await page.locator('#exchange-headers + p').textContent()).toBe(
        'Not kept (recorded before headers were kept).',
      );
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

forEachEngine((engine) => {
  describe('the transaction view with local event forwarding', () => {
    it('shows each event delivered, dead-lettered or still pending, from the forwarding folder', async () => {
      // A consumer that takes completions, refuses conflicts, and holds corrections unanswered.
      const held: ServerResponse[] = [];
      const received: string[] = [];
      const consumer = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          const kind = (JSON.parse(body) as { 'detail-type': string })['detail-type'];
          received.push(kind);
          if (kind === 'Transaction Completed') response.writeHead(204).end();
          else if (kind === 'Transaction Conflict') response.writeHead(500).end();
          else held.push(response);
        });
      });
      await new Promise<void>((resolve) => consumer.listen(0, '127.0.0.1', resolve));
      const runDir = await mkdtemp(join(tmpdir(), 'console-events-'));
      const files = eventFiles(runDir);
      const console = await startTestConsole(engine, { eventFiles: files });
      const forwarding = await startEventForwarding(
        runDir,
        { client: createTestClient(engine), tableName: console.table.tableName },
        {
          url: `http://127.0.0.1:${(consumer.address() as AddressInfo).port}/events`,
          pollMs: 50,
          policy: { attempts: 1, attemptTimeoutMs: 60_000 },
          log: () => {},
        },
      );
      try {
        const stored = transaction({ amount: 1000 });
        const reference = String(stored.reference);
        expect(await console.deliver(stored)).toBe(204);
        expect(await console.deliver({ ...stored, amount: 1250 })).toBe(409);
        // One change at a time, so the local stream sees each as the deployed stream would.
        await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
        await expect
          .poll(async () => (await readDeadLetters(files.deadLetters)).length, { timeout: 10_000 })
          .toBe(1);
        await settleConflict(
          { client: console.table.client, tableName: console.table.tableName },
          {
            reference,
            decision: {
              accept: 'received',
              actor: 'local:ops-a',
              reason: 'ticket OPS-8',
              at: new Date().toISOString(),
            },
          },
        );
        await expect.poll(() => held.length, { timeout: 10_000 }).toBe(1);

        const page = await console.signedIn(browser, `/transactions/${reference}`);
        const rows = page.locator('table.events tbody tr');
        expect(await rows.locator('td:first-child').allTextContents()).toEqual([
          'Transaction Completed',
          'Transaction Conflict',
          'Transaction Corrected',
        ]);
        const states = await rows.locator('td.delivery').allInnerTexts();
        expect(states[0]).toBe('delivered');
        expect(states[1]).toMatch(/^dead letter after 1 tries: .*500/);
        expect(states[2]).toBe('pending');
        await page.close();
      } finally {
        for (const response of held) response.writeHead(204).end();
        await forwarding.stop();
        await new Promise((resolve) => consumer.close(resolve));
        await console.close();
        await rm(runDir, { recursive: true, force: true });
      }
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
