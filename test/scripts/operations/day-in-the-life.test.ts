import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionFields } from '../../../lambda/callback/transaction-fields.js';
import type { SerializableValue } from '../../../lambda/json/json-text.js';
import { writeListing } from '../../../scripts/cli/output/listing.js';
import { forwardDestination } from '../../../scripts/commands/local-events.js';
import { localData } from '../../../scripts/local/local-data.js';
import { openLocalTable } from '../../../scripts/local/local-table.js';
import type { LocalServer } from '../../../scripts/local/server.js';
import { startLocalServer } from '../../../scripts/local/server.js';
import { noteChanges } from '../../../scripts/operations/events/change-notes.js';
import { eventFiles } from '../../../scripts/operations/events/event-files.js';
import { replayTransactions } from '../../../scripts/operations/events/replay.js';
import { readReport } from '../../../scripts/operations/reconcile/gateway-report.js';
import {
  agrees,
  reconcile,
  tableSources,
} from '../../../scripts/operations/reconcile/reconcile.js';
import { resubmitRefusal } from '../../../scripts/operations/refusals/resubmit.js';
import { settleConflict } from '../../../scripts/operations/settle/settle.js';
import { transactionViewOf } from '../../../scripts/operations/transaction-listing.js';
import { listRefusals } from '../../../scripts/table/kept-refusals.js';
import { LiveCursor } from '../../../scripts/table/live-cursor.js';
import { timeWindow } from '../../../scripts/table/time-window.js';
import { listByTime, type QueryContext } from '../../../scripts/table/transaction-queries.js';
import { searchTransactions } from '../../../scripts/table/transaction-search.js';
import { createTestClient, type Engine, engineEndpoint, engines } from '../../support/engines.js';
import { type EventConsumer, startEventConsumer } from '../../support/event-consumer.js';
import { feeFields } from '../../support/fee-fields.js';
import { signed as signedWith, transaction } from '../../support/fixtures.js';
import { deadLetters, type Envelope, until } from '../../support/forwarding.js';

/**
 * A day of an operations team, every feature meeting the others, on both engines: callbacks
 * with redeliveries, conflicts settled both ways, a field added between two runs of local mode,
 * refusals some of which are resubmitted, a customer's transaction searched, the day exported and reconciled, replayed to a
 * consumer, and followed live. Each step checks exact counts; a step that disagrees with another
 * (reconcile after settle, redeliveries across the new field) fails here first.
 */
const key = 'day-in-the-life-key-5f0c2a9e';
const firstRun = 240;
const secondRun = 240;
const redelivered = 25;
const conflicts = 20;
const refusals = 30;
const resubmitted = 10;
/**
 * Patient tries: on a loaded machine a POST to the consumer can take seconds, and an event given
 * up on is a dead letter, which this suite counts as missing.
 */
const patient = { attempts: 6, firstRetryMs: 50, maxRetryMs: 1_000, attemptTimeoutMs: 10_000 };

describe.each(engines)('a day in the life, on %s', (engine: Engine) => {
  let folder: string;
  let consumer: EventConsumer;
  let server: LocalServer | undefined;
  let context: QueryContext;
  let closeTable: () => Promise<void> = async () => {};
  const tableName = `day-${randomUUID()}`;
  const dayStart = new Date(Date.now() - 1_000).toISOString();

  const start = (fields: TransactionFields | undefined, hashMode: 'required' | 'if-present') =>
    startLocalServer({
      port: 0,
      dataDir: folder,
      apiKeys: key,
      tableName,
      hashMode,
      ...(engine === 'dynamodb-local' && { endpoint: engineEndpoint('dynamodb-local') }),
      ...(fields && { fields }),
      forwardEvents: { url: consumer.url, policy: patient, pollMs: 30, log: () => {} },
    });
  const deliver = async (body: string) => {
    const response = await fetch((server as LocalServer).url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body,
    });
    return `${response.status} ${response.headers.get('x-callback-outcome') ?? ''}`.trim();
  };
  const signed = (fields: Record<string, SerializableValue>) => signedWith(fields, key);
  const unsigned = (fields: Record<string, SerializableValue>) => JSON.stringify(fields);
  /** The table as an operator's command reads it: local mode's own, or the shared engine. */
  const openTable = async (fields?: TransactionFields) => {
    await closeTable();
    if (engine === 'dynamodb-local') {
      const client = createTestClient('dynamodb-local');
      closeTable = async () => client.destroy();
      context = { client, tableName, ...(fields && { fields }) };
    } else {
      const table = await openLocalTable(localData(folder), tableName);
      closeTable = async () => table.client.destroy();
      context = { client: table.client, tableName, ...(fields && { fields }) };
    }
  };
  const window = () => timeWindow(dayStart, new Date(Date.now() + 1_000).toISOString());

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'day-in-the-life-'));
    consumer = await startEventConsumer();
  });
  afterAll(async () => {
    await server?.stop();
    await closeTable();
    await consumer.close();
    await rm(folder, { recursive: true, force: true });
  });

  // One day, in order: each step builds on the last, so the steps are one test.
  it('adds up: callbacks, conflicts settled, a new field, refusals resubmitted, searched, reconciled, replayed, followed', async () => {
    // How long each part took, printed when the test fails.
    let last = performance.now();
    const step = (name: string) => {
      console.log(`${name}: ${Math.round(performance.now() - last)} ms`);
      last = performance.now();
    };
    // A follower started before the first callback: it must see every new transaction once.
    server = await start(undefined, 'required');
    await openTable();
    // `query tail`, followed from the day's start; restarted with local mode after the upgrade.
    let tail = LiveCursor.resume(context, { at: dayStart, recent: [] }, { overlapMs: 2_000 });
    const followed = new Map<string, number>();
    const follow = async () => {
      for (const entry of await tail.next()) {
        if (entry.kind === 'transaction') {
          followed.set(entry.key, (followed.get(entry.key) ?? 0) + 1);
        }
      }
    };

    // Morning: the first run, with the product's declaration, hash required.
    const morning = Array.from({ length: firstRun }, () => transaction({ amount: 1000 }));
    for (const fields of morning) expect(await deliver(signed(fields))).toBe('204 recorded');
    for (const fields of morning.slice(0, redelivered)) {
      expect(await deliver(signed(fields))).toBe('204 duplicate');
    }
    // Twenty references receive other content: 409, kept for audit.
    const disputed = morning.slice(redelivered, redelivered + conflicts);
    for (const fields of disputed) {
      expect(await deliver(signed({ ...fields, amount: 1250 }))).toBe('409');
    }
    // Thirty deliveries without a hash: refused 403 and kept.
    const unhashed = Array.from({ length: refusals }, () => transaction({ amount: 777 }));
    for (const fields of unhashed) expect(await deliver(unsigned(fields))).toBe('403');
    await follow();
    // Settled hours later in a real day: local mode has read the morning by then. A settle before
    // its first read of an item is forwarded as one Completed event, already corrected, and no
    // Corrected event (docs/local-mode.md, "Where they come from").
    // Counted by id: a repeat the consumer answered twice (see below) is not a missing event.
    const distinctIds = () =>
      new Set((consumer.accepted() as unknown as Envelope[]).map((event) => event.id)).size;
    await until(() => distinctIds() >= firstRun + conflicts, 'the morning forwarded', 60_000);
    step('morning');

    // Noon: the conflicts settled, half each way, as the settle command does it.
    const accepted = disputed.slice(0, conflicts / 2);
    const kept = disputed.slice(conflicts / 2);
    const settle = async (
      fields: Record<string, SerializableValue>,
      accept: 'received' | 'stored',
    ) => {
      const reference = fields.reference as string;
      await settleConflict(context, {
        reference,
        decision: {
          accept,
          actor: 'local:ops-a',
          reason: `OPS-${accept}`,
          at: new Date().toISOString(),
        },
      });
      await noteChanges(eventFiles(folder), [reference]);
    };
    for (const fields of accepted) await settle(fields, 'received');
    for (const fields of kept) await settle(fields, 'stored');

    step('noon');
    // Afternoon: local mode restarted with a field added (`fee`, version 2), hash if present.
    await server.stop();
    server = await start(feeFields, 'if-present');
    await openTable(feeFields);
    tail = LiveCursor.resume(context, tail.position, { overlapMs: 2_000 });
    // The morning's transactions redelivered across the new declaration stay duplicates.
    for (const fields of morning.slice(redelivered + conflicts, redelivered + conflicts + 10)) {
      expect(await deliver(signed(fields))).toBe('204 duplicate');
    }
    // Each corrected transaction's accepted content is a duplicate; the replaced one still 409.
    for (const fields of accepted) {
      expect(await deliver(signed({ ...fields, amount: 1250 }))).toBe('204 duplicate');
      expect(await deliver(signed(fields))).toBe('409');
    }
    const afternoon = Array.from({ length: secondRun }, () =>
      transaction({ amount: 2000, fee: 15 }),
    );
    for (const fields of afternoon) expect(await deliver(signed(fields))).toBe('204 recorded');

    // Ten refusals resubmitted: now accepted, since the hash is no longer required.
    const refusalsContext = { client: context.client, tableName: `${tableName}-refusals` };
    const kept403 = [];
    for await (const refusal of listRefusals(refusalsContext)) kept403.push(refusal);
    expect(kept403).toHaveLength(refusals);
    for (const refusal of kept403.slice(0, resubmitted)) {
      const answer = await resubmitRefusal(refusal, {
        url: server.url,
        apiKey: key,
        timeoutMs: 5_000,
      });
      expect(answer).toEqual({ status: 204, outcome: 'recorded' });
    }
    await follow();

    step('afternoon');
    // A customer calls: the operator searches under the new declaration. The gateway's id finds
    // a corrected transaction; the user, typed in capitals, finds the first 50 of the day's.
    const called = accepted[0] as Record<string, SerializableValue>;
    const byId = await searchTransactions(context, String(called.id));
    expect(byId.rows.map(({ item, matched }) => [item.reference, matched])).toEqual([
      [called.reference, ['id']],
    ]);
    const byUser = await searchTransactions(context, 'DENIZ.KAYA');
    expect(byUser.searched.find(({ kind }) => kind === 'username')).toMatchObject({
      text: 'deniz.kaya',
      found: 50,
      more: true,
    });
    const byPrefix = await searchTransactions(context, String(called.reference));
    expect(byPrefix.rows.map(({ item }) => item.reference)).toContain(called.reference);

    step('searched');
    const recorded = firstRun + secondRun + resubmitted;
    // Forwarding: every new transaction once, every correction once, every conflict once.
    const counted = () => {
      const types = new Map<string, number>();
      for (const event of consumer.accepted() as unknown as Envelope[]) {
        types.set(event['detail-type'], (types.get(event['detail-type']) ?? 0) + 1);
      }
      return JSON.stringify(Object.fromEntries(types));
    };
    await until(
      () => distinctIds() >= recorded + conflicts / 2 + conflicts,
      'the day forwarded',
      60_000,
    ).catch(async (error: Error) => {
      const letters = await deadLetters(folder);
      throw new Error(
        `${error.message}: ${counted()}, ${consumer.received.length} POSTs, ` +
          `${letters.length} dead letter(s) ${JSON.stringify(letters.map((l) => l.problem))}`,
      );
    });
    // Delivery is at least once: a POST the consumer answered after the forwarder gave up on it
    // (a loaded machine) comes again under the same id, which a consumer keeps once. Never two
    // events for one change: a repeated id carries the very same event.
    const eventsById = new Map<string, Envelope>();
    for (const event of consumer.accepted() as unknown as Envelope[]) {
      const seen = eventsById.get(event.id);
      if (seen) expect(event).toEqual(seen);
      else eventsById.set(event.id, event);
    }
    const forwarded = [...eventsById.values()];
    const byType = (type: string) =>
      forwarded.filter((event) => event['detail-type'] === type).map((e) => e.detail.reference);
    const completed = byType('Transaction Completed');
    expect(completed).toHaveLength(recorded);
    expect(new Set(completed).size).toBe(recorded);
    expect(byType('Transaction Corrected').sort()).toEqual(
      accepted.map((fields) => fields.reference).sort(),
    );
    expect(new Set(byType('Transaction Conflict'))).toEqual(
      new Set(disputed.map((fields) => fields.reference)),
    );

    step('forwarded');
    // Evening: the day exported, then reconciled against that export: it agrees, exit 0.
    const out = new PassThrough();
    const exported = text(out);
    await writeListing(
      listByTime(context, window(), {}),
      transactionViewOf(feeFields),
      { format: 'csv' },
      {},
      out,
    );
    out.end();
    const csv = await exported;
    const summary = await reconcile(
      {
        report: readReport(Readable.from([csv]), 'csv', feeFields),
        ...tableSources(context, window()),
      },
      () => {},
    );
    expect(summary).toMatchObject({
      reportRows: recorded,
      agreeing: recorded,
      missing: 0,
      unexpected: 0,
      mismatch: 0,
      openConflicts: 0,
    });
    expect(summary.settledConflicts).toBeGreaterThanOrEqual(conflicts);
    expect(agrees(summary)).toBe(true);

    step('reconciled');
    // The day replayed to a second consumer: exactly the day's transactions, once each.
    const replayed = await startEventConsumer();
    try {
      const result = await replayTransactions(
        { ...context, ...(await forwardDestination(replayed.url)) },
        { window: window() },
      );
      expect(result).toEqual({ published: recorded, failed: 0, unpublishable: 0, notFound: 0 });
      const references = (replayed.accepted() as unknown as Envelope[]).map(
        (event) => event.detail.reference,
      );
      expect(references).toHaveLength(recorded);
      expect(new Set(references)).toEqual(new Set(completed));
    } finally {
      await replayed.close();
    }

    step('replayed');
    // The live follower saw each new transaction exactly once, across the restart.
    await follow();
    expect([...followed.values()].every((count) => count === 1)).toBe(true);
    expect(new Set(followed.keys())).toEqual(new Set(completed));
  }, 240_000);
});
