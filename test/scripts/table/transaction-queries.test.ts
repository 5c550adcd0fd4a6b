import {
  CreateTableCommand,
  type DynamoDBClient,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionFields } from '../../../lambda/callback/transaction-fields.js';
import {
  indexNames,
  type TableDefinition,
  timeShards,
  transactionsTable,
  transactionsTableOf,
} from '../../../lambda/storage/table-definition.js';
import { conflictItem } from '../../../lambda/storage/transaction-item.js';
import type { TransactionRecord } from '../../../lambda/storage/transaction-store.js';
import { summarize } from '../../../scripts/commands/query-summary.js';
import { createTableInput } from '../../../scripts/local/engine/create-table-input.js';
import { ensureTable } from '../../../scripts/local/engine/local-engine.js';
import type { StoredItem } from '../../../scripts/table/stored-item.js';
import { timeWindow } from '../../../scripts/table/time-window.js';
import {
  conflictItems,
  type Item,
  itemsByReference,
  itemsInWindow,
  listByTime,
  listByUsername,
  maxKeysPerBatch,
  type QueryContext,
  scanTransactions,
  take,
  windowPageSize,
} from '../../../scripts/table/transaction-queries.js';
import { createTestTable, type Engine, engines, type TestTable } from '../../support/engines.js';
import { putBatch } from '../../support/put-batch.js';
import { storeTransactions, syntheticRecords } from '../../support/stored-transactions.js';

const end = new Date('2026-11-20T00:00:00.000Z');
/** 300 transactions over three days before `end`, with big and fractional amounts. */
const records = syntheticRecords({ count: 300, spanDays: 3, end, seed: 7, usernames: 5 });

async function collect(items: AsyncIterable<StoredItem>): Promise<StoredItem[]> {
  const all: StoredItem[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const referencesOf = (items: readonly { reference?: unknown }[]) =>
  items.map((item) => String(item.reference));

/** The brute-force answer: filter every record by the window, sort newest first. */
function expectedIn(since: string, until: string): TransactionRecord[] {
  return records
    .filter((record) => record.receivedAt >= since && record.receivedAt < until)
    .sort(
      (a, b) =>
        b.receivedAt.localeCompare(a.receivedAt) ||
        a.transaction.reference.localeCompare(b.transaction.reference),
    );
}

/** The Query requests a client sends, as the caller built them. */
function recordQueries(client: DynamoDBClient): { readonly sent: QueryCommandInput[] } {
  const sent: QueryCommandInput[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') sent.push(args.input as QueryCommandInput);
      return next(args);
    },
    { step: 'initialize', name: `recordQueries${Math.random()}` },
  );
  return { sent };
}

describe.each(engines)('time-window queries on %s', (engine: Engine) => {
  let table: TestTable;
  let context: QueryContext;
  beforeAll(async () => {
    table = await createTestTable(engine);
    context = { client: table.client, tableName: table.tableName };
    await storeTransactions(table.client, table.tableName, records);
  }, 60_000);
  afterAll(() => table?.drop());

  it('returns exactly the transactions of [since, until), newest first', async () => {
    // Bounds on stored times: the first is included, the last excluded.
    const since = (records[200] as TransactionRecord).receivedAt;
    const until = (records[100] as TransactionRecord).receivedAt;

    const found = await collect(listByTime(context, timeWindow(since, until), {}));

    expect(referencesOf(found)).toEqual(
      expectedIn(since, until).map((record) => record.transaction.reference),
    );
    expect(found.map((item) => item.receivedAt)).toContain(since);
    expect(found.map((item) => item.receivedAt)).not.toContain(until);
  });

  it('pages through every shard: a page of 7 gives the same answer as one big page', async () => {
    const window = timeWindow('2026-11-17', '2026-11-20');

    const paged = await collect(listByTime({ ...context, pageSize: 7 }, window, {}));

    expect(referencesOf(paged)).toEqual(
      expectedIn(window.since, '2026-11-20T00:00:00.000Z').map((r) => r.transaction.reference),
    );
    expect(paged).toHaveLength(300);
  });

  it('costs one query per shard whatever the window: a day, or twenty-six years', async () => {
    const queries = recordQueries(table.client);

    await collect(listByTime(context, timeWindow('2026-11-19', '2026-11-20'), {}));
    const oneDay = queries.sent.length;
    await collect(listByTime(context, timeWindow('2000-01-01', '2026-11-20'), {}));
    const years = queries.sent.length - oneDay;

    expect(oneDay).toBe(timeShards);
    expect(years).toBe(timeShards);
  });

  it('asks for a thousand entries a page unless the caller sets its own', async () => {
    const queries = recordQueries(table.client);
    const window = timeWindow('2026-11-17', '2026-11-20');

    await collect(listByTime(context, window, {}));
    const byDefault = queries.sent.map((input) => input.Limit);
    await collect(listByTime({ ...context, pageSize: 50 }, window, {}));
    const chosen = queries.sent.slice(byDefault.length).map((input) => input.Limit);

    // Sixteen shards hold a page each while merged: DynamoDB's own page would be 1 MB each.
    expect(windowPageSize).toBe(1000);
    expect(byDefault).toEqual(Array(timeShards).fill(windowPageSize));
    expect(new Set(chosen)).toEqual(new Set([50]));
  });

  it('reads whole items for a window, asking the index for keys only', async () => {
    const queries = recordQueries(table.client);
    const window = timeWindow('2026-11-17', '2026-11-20');

    const batches: Item[][] = [];
    for await (const batch of itemsInWindow(context, window)) batches.push(batch);

    const items = batches.flat();
    expect(batches.every((batch) => batch.length <= maxKeysPerBatch)).toBe(true);
    expect(items.map((item) => item.reference?.S)).toEqual(
      expectedIn(window.since, '2026-11-20T00:00:00.000Z').map((r) => r.transaction.reference),
    );
    expect(items.every((item) => item.rawBody?.S !== undefined)).toBe(true);
    for (const input of queries.sent) {
      const projected = input.ProjectionExpression?.split(', ').map(
        (name) => input.ExpressionAttributeNames?.[name],
      );
      expect(projected).toEqual(['reference', 'receivedAt']);
    }
  });

  it('reads only the attributes asked for, in the same order, with reserved names', async () => {
    const window = timeWindow('2026-11-17', '2026-11-20');

    // `status` is a reserved word; `extra` is not carried by this declaration's index (DynamoDB
    // refuses to project it): both must be accepted.
    const only = await collect(listByTime(context, window, {}, ['amount', 'status', 'extra']));
    const whole = await collect(listByTime(context, window, {}));

    expect(referencesOf(only)).toEqual(referencesOf(whole));
    expect(whole.some((item) => item.username !== undefined)).toBe(true);
    for (const item of only) {
      expect(Object.keys(item).sort()).toEqual(['amount', 'receivedAt', 'reference', 'status']);
    }
    expect(only.map((item) => String(item.amount))).toEqual(
      whole.map((item) => String(item.amount)),
    );
  });

  it('filters by type and status on the index', async () => {
    const found = await collect(
      listByTime(context, timeWindow('2026-11-17', '2026-11-20'), {
        type: 'Withdrawal',
        status: 'Reject',
      }),
    );

    const expected = records.filter(
      (r) => r.transaction.type === 'Withdrawal' && r.transaction.status === 'Reject',
    );
    expect(new Set(referencesOf(found))).toEqual(
      new Set(expected.map((r) => r.transaction.reference)),
    );
  });

  it("lists a user's transactions within a window, in any letter case", async () => {
    const username = (records[0] as TransactionRecord).transaction.username;
    const [since, until] = ['2026-11-18T00:00:00.000Z', '2026-11-19T00:00:00.000Z'];

    const found = await collect(
      listByUsername(context, username.toUpperCase(), {}, timeWindow(since, until)),
    );

    const expected = expectedIn(since, until).filter(
      (record) => record.transaction.username === username,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(referencesOf(found)).toEqual(expected.map((record) => record.transaction.reference));
  });

  it("lists a user's transactions newest first from the byUser index", async () => {
    const username = (records[0] as TransactionRecord).transaction.username;

    const found = await collect(listByUsername(context, username, {}));

    const expected = expectedIn('0', '9').filter((r) => r.transaction.username === username);
    expect(referencesOf(found)).toEqual(expected.map((r) => r.transaction.reference));
  });

  it('sums amounts exactly per currency, type, status and day, as a brute-force oracle does', async () => {
    const window = timeWindow('2026-11-17T12:00:00Z', '2026-11-19T12:00:00Z');

    const rows = await summarize(listByTime(context, window, {}), { byDay: true });

    expect(rows).toEqual(oracleSummary(expectedIn(window.since, '2026-11-19T12:00:00.000Z')));
    expect(rows.some((row) => row.amount.replace('.', '').length > 16)).toBe(true);
  });
});

describe.each(engines)('a table whose indexes differ on %s', (engine: Engine) => {
  let table: TestTable;
  beforeAll(async () => {
    table = await createTestTable(engine);
  });
  afterAll(() => table?.drop());

  it('is refused where the stack owns it, saying what to do', async () => {
    const name = `drifted-${table.tableName}`;
    const withoutByUser: TableDefinition = {
      ...transactionsTable,
      indexes: transactionsTable.indexes.filter((index) => index.indexName !== indexNames.byUser),
    };
    await table.client.send(new CreateTableCommand(createTableInput(name, withoutByUser)));

    await expect(ensureTable(table.client, name, { create: false })).rejects.toThrow(
      /index byUser is missing.*older version.*deploy the stack.*Changing indexes/s,
    );
  });

  it('is taken where only search indexes are missing: a stack adds them one deploy at a time', async () => {
    const name = `before-search-${table.tableName}`;
    await table.client.send(
      new CreateTableCommand(
        createTableInput(name, transactionsTableOf(transactionFields, undefined, ['byReference'])),
      ),
    );

    await expect(ensureTable(table.client, name, { create: false })).resolves.toBe('exists');
  });
});

/**
 * The summary by integer arithmetic on hundredths (every synthetic amount has at most two
 * fraction digits), independent of big.js.
 */
function oracleSummary(selected: readonly TransactionRecord[]) {
  const groups = new Map<string, { count: number; hundredths: bigint }>();
  for (const { transaction: t, receivedAt } of selected) {
    const key = [receivedAt.slice(0, 10), t.currency, t.type, t.status].join('|');
    const [whole, fraction = ''] = t.amount.split('.');
    const hundredths = BigInt(whole as string) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
    const group = groups.get(key) ?? { count: 0, hundredths: 0n };
    groups.set(key, { count: group.count + 1, hundredths: group.hundredths + hundredths });
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, { count, hundredths }]) => {
      const [day, currency, type, status] = key.split('|');
      const whole = hundredths / 100n;
      const cents = hundredths % 100n;
      const fraction =
        cents === 0n ? '' : `.${cents.toString().padStart(2, '0').replace(/0$/, '')}`;
      return { day, currency, type, status, count, amount: `${whole}${fraction}` };
    });
}

describe.each(engines)('whole-table reads on %s', (engine: Engine) => {
  let table: TestTable;
  /** Four transactions, the two newest received in the same millisecond; a conflict kept too. */
  const four = syntheticRecords({ count: 4, spanDays: 4, end, seed: 11 });
  const sameTime = four.map((record, index) =>
    index === 0 ? { ...record, receivedAt: (four[1] as TransactionRecord).receivedAt } : record,
  );
  beforeAll(async () => {
    table = await createTestTable(engine);
    await storeTransactions(table.client, table.tableName, sameTime);
    const newest = sameTime[1] as TransactionRecord;
    await putBatch(table.client, table.tableName, [
      conflictItem({ ...newest, fingerprint: 'e'.repeat(64), receivedAt: newest.receivedAt }),
    ]);
  });
  afterAll(() => table?.drop());

  it('a scan of the whole table lists transactions only, newest first, equal times by reference', async () => {
    const scanned = await collect(scanTransactions(table, {}));

    const expected = [...sameTime].sort(
      (a, b) =>
        b.receivedAt.localeCompare(a.receivedAt) ||
        a.transaction.reference.localeCompare(b.transaction.reference),
    );
    expect(referencesOf(scanned)).toEqual(expected.map((record) => record.transaction.reference));
  });

  it('a scan filtered by type and status keeps only those', async () => {
    const [first] = sameTime as [TransactionRecord];
    const { type, status } = first.transaction;

    const scanned = await collect(scanTransactions(table, { type, status }));

    expect(scanned.length).toBeGreaterThan(0);
    for (const item of scanned) expect([item.type, item.status]).toEqual([type, status]);
  });

  it('lists the conflicts kept, all or only those received in a window', async () => {
    const newest = sameTime[1] as TransactionRecord;
    const all = [];
    for await (const item of conflictItems(table)) all.push(item);
    const inside = [];
    const around = timeWindow(newest.receivedAt, end.toISOString());
    for await (const item of conflictItems(table, around)) inside.push(item);
    const outside = [];
    const before = timeWindow('2020-01-01T00:00:00.000Z', newest.receivedAt);
    for await (const item of conflictItems(table, before)) outside.push(item);

    expect(all.map((item) => item.conflictOf?.S)).toEqual([newest.transaction.reference]);
    expect(inside).toHaveLength(1);
    expect(outside).toEqual([]);
  });

  it('refuses to read more than a hundred references by key in one lookup', async () => {
    const references = Array.from({ length: maxKeysPerBatch + 1 }, (_, i) => `ref-${i}`);

    await expect(itemsByReference(table, references)).rejects.toThrow(
      'at most 100 references per lookup',
    );
  });
});

describe('the first items of a stream', () => {
  it('none asked for: nothing, and the stream is never read', async () => {
    let read = false;
    async function* stream() {
      read = true;
      yield 1;
    }

    const taken = [];
    for await (const item of take(stream(), 0)) taken.push(item);

    expect(taken).toEqual([]);
    expect(read).toBe(false);
  });
});
