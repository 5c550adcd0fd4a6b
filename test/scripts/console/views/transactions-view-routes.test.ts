import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { type EventFiles, eventFiles } from '../../../../scripts/operations/events/event-files.js';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import { readReference } from '../../../../scripts/table/reference-state.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { type Engine, forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { storedItem } from '../../../support/stored-items.js';
import { streamRecord } from '../../../support/stream-records.js';
import { consoleRoutes } from '../support/console-routes.js';

/**
 * The Transactions list, its live update and one transaction's page, asked of the routes
 * in-process without a browser: filters that match nothing, cursors and windows at their edges,
 * and what the page says of conflicts and of local forwarding. transactions-view.test.ts and
 * transaction-view.test.ts drive the same pages in Chromium.
 */

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The references the list's rows link to, in its order. */
function referencesIn(page: string): string[] {
  return [...page.matchAll(/<a href="\/transactions\/([^"?]+)">/g)].map((match) =>
    decodeURIComponent(match[1] ?? ''),
  );
}

/** A forwarding folder as local mode leaves it, holding what `write` puts there. */
async function forwardingFolder(write: (files: EventFiles) => Promise<void>) {
  const folder = await mkdtemp(join(tmpdir(), 'console-forwarding-'));
  const files = eventFiles(folder);
  await mkdir(files.dir);
  await write(files);
  return { files, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** The Delivery cells of the Events tab, as text. */
function deliveryCells(page: string): string[] {
  return [...page.matchAll(/<td class="delivery">([\s\S]*?)<\/td>/g)].map((match) =>
    (match[1] ?? '').replace(/<[^>]+>/g, '').trim(),
  );
}

forEachEngine((engine: Engine) => {
  describe('the transactions view, route by route', () => {
    const console = suiteConsole(engine);

    describe('the list', () => {
      it('shows a reference only when the other filters match it too', async () => {
        const fields = transaction({ username: 'Filter.User', type: 'Deposit', status: 'Confirm' });
        expect(await console.deliver(fields)).toBe(204);
        const routes = consoleRoutes(console);
        const reference = String(fields.reference);
        const shown = async (filters: string) =>
          referencesIn((await routes.get(`/transactions?reference=${reference}&${filters}`)).text);

        expect(await shown('username=filter.user&type=Deposit&status=Confirm')).toEqual([
          reference,
        ]);
        expect(await shown('since=2000-01-01&until=9999-12-31')).toEqual([reference]);
        for (const other of [
          'username=someone.else',
          'type=Withdrawal',
          'status=Reject',
          'since=9999-01-01',
          'until=2000-01-02',
        ]) {
          expect(await shown(other), other).toEqual([]);
        }
        const none = await routes.get(`/transactions?reference=${reference}&status=Reject`);
        expect(none.text).toContain('No transactions match.');
        // A reference is one row, not a list that grows: no live update.
        expect(none.text).not.toContain('id="live"');
      });

      it('says why a Since that is not a time finds nothing', async () => {
        const answer = await consoleRoutes(console).get('/transactions?since=yesterday-ish');
        expect(answer.status).toBe(200);
        expect(answer.text).toMatch(/<p class="notice error" role="alert">[^<]*since/i);
        expect(answer.text).not.toContain('<tbody id="rows">');
      });

      it('starts from the newest on a cursor that is not its own, and stops at Until before one', async () => {
        expect(await console.deliver(transaction())).toBe(204);
        const routes = consoleRoutes(console);
        const newest = referencesIn((await routes.get('/transactions')).text);
        for (const after of ['%7B', cursor(null), cursor({ at: 1, reference: 'x' })]) {
          const page = await routes.get(`/transactions?after=${after}`);
          expect(referencesIn(page.text)).toEqual(newest);
          expect(page.text).toContain('new ones appear as they are recorded');
        }
        const older = await routes.get(
          `/transactions?until=2000-01-02&after=${cursor({ at: '2999-01-01T00:00:00.000Z', reference: 'z' })}`,
        );
        expect(older.text).toContain('No transactions match.');
        expect(older.text).toContain('<a href="/transactions?until=2000-01-02">Newest</a>');
      });
      it('says when a searched text can be no reference, gateway id or username', async () => {
        const text = `a\u0001${'b'.repeat(3000)}`;
        const answer = await consoleRoutes(console).get(
          `/transactions?q=${encodeURIComponent(text)}`,
        );
        expect(answer.status).toBe(200);
        expect(answer.text).toContain('cannot be a reference, a gateway id or a username.');
        expect(answer.text).toContain('Nothing matches');
      });
    });

    describe('the live update', () => {
      it('answers 204 for a reference, and for a window that ended before the newest shown', async () => {
        const routes = consoleRoutes(console);
        const newest = cursor({ at: new Date().toISOString(), seen: [] });
        for (const path of [
          `/live/transactions?reference=ref-any&newest=${newest}`,
          `/live/transactions?until=2000-01-02&newest=${newest}`,
        ]) {
          expect((await routes.get(path)).status, path).toBe(204);
        }
      });

      it('sends every newer row, and comes back knowing them', async () => {
        const username = `live-${Date.now()}`;
        const fields = transaction({ username });
        expect(await console.deliver(fields)).toBe(204);
        const routes = consoleRoutes(console);
        // No newest shown yet (or one the poller did not send back as its own): all of them.
        for (const newest of ['', '&newest=%7B', `&newest=${cursor({ at: 'x', seen: [1] })}`]) {
          const answer = await routes.get(`/live/transactions?username=${username}${newest}`);
          expect(answer.status).toBe(200);
          expect(referencesIn(answer.text)).toEqual([String(fields.reference)]);
          expect(answer.text).toContain('hx-swap-oob="afterbegin:#rows"');
          const next = /hx-get="\/live\/transactions\?([^"]*)"/.exec(answer.text)?.[1] ?? '';
          const again = await routes.get(`/live/transactions?${next.replaceAll('&amp;', '&')}`);
          expect(again.status).toBe(204);
        }
      });
    });

    describe('one transaction', () => {
      it('answers 404 for a reference too long for a key, as for any it does not hold', async () => {
        const routes = consoleRoutes(console);
        for (const reference of ['ref-never-recorded', 'r'.repeat(3000)]) {
          const answer = await routes.get(`/transactions/${reference}`);
          expect(answer.status).toBe(404);
          expect(answer.text).toContain('No transaction is recorded with the reference');
        }
      });

      it('counts a conflicting delivery repeated, and shows the decision on it', async () => {
        const stored = transaction({ amount: 1000 });
        const conflicting = { ...stored, amount: 1250 };
        expect(await console.deliver(stored)).toBe(204);
        expect(await console.deliver(conflicting)).toBe(409);
        expect(await console.deliver(conflicting)).toBe(409);
        expect(await console.deliver({ ...stored, amount: 1300, note: 'by hand' })).toBe(409);
        const reference = String(stored.reference);
        const routes = consoleRoutes(console);
        const open = await routes.get(`/transactions/${reference}?tab=conflicts`);
        expect(open.text).toMatch(/conflict \(409\), delivered 2 times, last at [^;]+; open/);
        // A member the stored transaction lacks is marked as absent there.
        expect(open.text).toContain('<span class="muted">(stored: (absent))</span>');

        const context = { client: console.table.client, tableName: console.table.tableName };
        const conflict = (await readReference(context, reference)).conflicts.find(
          (one) => one.deliveries === 2,
        );
        await settleConflict(context, {
          reference,
          conflict: conflict?.fingerprint as string,
          expectVersion: 1,
          decision: {
            accept: 'stored',
            reason: 'TICKET-3',
            actor: 'ops',
            at: '2026-11-28T10:00:00.000Z',
          },
        });
        const settled = await routes.get(`/transactions/${reference}?tab=conflicts`);
        expect(settled.text).toContain(
          '<span class="badge open">1 open</span> <span class="badge ok">1 settled</span>',
        );
        expect(settled.text).toContain(
          'settled: refused: the stored content was kept, by ops at 2026-11-28T10:00:00.000Z: TICKET-3',
        );
      });

      it('shows kept headers that are not a JSON object as text, and an empty set as none', async () => {
        const fields = transaction();
        expect(await console.deliver(fields)).toBe(204);
        const reference = String(fields.reference);
        const routes = consoleRoutes(console);
        const keptAs = async (headers: string) => {
          await console.table.client.send(
            new UpdateItemCommand({
              TableName: console.table.tableName,
              Key: { reference: { S: reference } },
              UpdateExpression: 'SET headers = :headers',
              ExpressionAttributeValues: { ':headers': { S: headers } },
            }),
          );
          const page = (await routes.get(`/transactions/${reference}?tab=exchange`)).text;
          return /Request headers[\s\S]*?<\/h3>\s*([\s\S]*?)\s*<h3/.exec(page)?.[1];
        };
        expect(await keptAs('content-type: text/plain')).toBe(
          '<pre>content-type: text/plain</pre>',
        );
        expect(await keptAs('["a"]')).toBe('<pre>[&quot;a&quot;]</pre>');
        expect(await keptAs('{}')).toBe('<p class="muted">None.</p>');
      });

      it('lists one event per accepted correction, and none for a replaced version sent again', async () => {
        const first = transaction({ amount: 1000 });
        const reference = String(first.reference);
        const context = { client: console.table.client, tableName: console.table.tableName };
        expect(await console.deliver(first)).toBe(204);
        // Two corrections, each a conflicting delivery accepted by an operator.
        for (const [version, amount] of [
          [1, 1100],
          [2, 1200],
        ] as const) {
          expect(await console.deliver({ ...first, amount })).toBe(409);
          const open = (await readReference(context, reference)).conflicts.find(
            (one) => !one.settlement,
          );
          await settleConflict(context, {
            reference,
            conflict: open?.fingerprint as string,
            expectVersion: version,
            decision: {
              accept: 'received',
              reason: `fix ${version}`,
              actor: 'ops',
              at: new Date().toISOString(),
            },
          });
        }
        // The first content again: a version already replaced, which publishes nothing.
        expect(await console.deliver(first)).toBe(409);

        const page = await consoleRoutes(console).get(`/transactions/${reference}?tab=events`);
        const events = [
          ...page.text.matchAll(/<tr><td>([^<]+)<\/td>[\s\S]*?<a href="[^"]*">([^<]+)<\/a>/g),
        ].map((match) => `${match[1]} for ${match[2]}`);
        expect(events.filter((event) => event.includes('version'))).toEqual([
          'Transaction Completed for version 1',
          'Transaction Corrected for version 2',
          'Transaction Corrected for version 3',
        ]);
        expect(events.filter((event) => event.includes('conflict'))).toHaveLength(2);
      });

      it('says where local forwarding stands with each event: pending, delivered, or not in the outbox', async () => {
        const fields = transaction();
        expect(await console.deliver(fields)).toBe(204);
        const reference = String(fields.reference);
        const item = await storedItem(console.table, { reference });
        const outbox = (records: unknown[]) =>
          records
            .map((record) => `${JSON.stringify({ key: reference, digest: null, record })}\n`)
            .join('');
        const routes = (files: EventFiles) => consoleRoutes(console, { eventFiles: files });
        const path = `/transactions/${reference}?tab=events`;

        // Neither this transaction's change (only one removed, one no event can be built from)
        // nor a readable count: forwarding started after it.
        const before = await forwardingFolder(async (files) => {
          await writeFile(
            files.outbox,
            outbox([
              { eventName: 'REMOVE', dynamodb: {} },
              { eventName: 'INSERT', dynamodb: {} },
            ]),
          );
          await writeFile(files.forwarded, '{}');
          await writeFile(files.deadLetters, `${JSON.stringify({ id: 'letter-1', reference })}\n`);
        });
        const notThere = await routes(before.files).get(path);
        expect(deliveryCells(notThere.text)).toEqual([
          'not in the outbox (delivered before it was compacted, or recorded before forwarding started)',
        ]);
        await before.remove();

        const owed = await forwardingFolder((files) =>
          writeFile(files.outbox, outbox([streamRecord('INSERT', item ?? {})])),
        );
        expect(deliveryCells((await routes(owed.files).get(path)).text)).toEqual(['pending']);
        await writeFile(owed.files.forwarded, JSON.stringify({ count: 1 }));
        expect(deliveryCells((await routes(owed.files).get(path)).text)).toEqual(['delivered']);
        await owed.remove();
      });
    });
  });
});
