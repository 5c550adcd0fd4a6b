import type { DynamoDBClient, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionFields } from '../../../lambda/callback/transaction-fields.js';
import { timeShards, transactionsTableOf } from '../../../lambda/storage/table-definition.js';
import { conflictItem } from '../../../lambda/storage/transaction-item.js';
import type { TransactionRecord } from '../../../lambda/storage/transaction-store.js';
import { searchPlan, searchTransactions } from '../../../scripts/table/transaction-search.js';
import { createTestTable, type Engine, engines, type TestTable } from '../../support/engines.js';
import { putBatch } from '../../support/put-batch.js';
import { storeTransactions, syntheticRecords } from '../../support/stored-transactions.js';

const end = new Date('2026-11-20T00:00:00.000Z');
/** 400 transactions (`bench-3-0` … `bench-3-399`, ids 1000000 …), one of them named in capitals. */
const records: TransactionRecord[] = syntheticRecords({
  count: 400,
  end,
  spanDays: 2,
  seed: 3,
}).map((record, i) =>
  i === 17
    ? { ...record, transaction: { ...record.transaction, username: 'Grace.HOPPER' } }
    : record,
);
const referencesOf = (result: Awaited<ReturnType<typeof searchTransactions>>) =>
  result.rows.map((row) => String(row.item.reference));

/** The Query and BatchGetItem requests a client sends. */
function countRequests(client: DynamoDBClient): { queries: QueryCommandInput[]; batches: number } {
  const sent = { queries: [] as QueryCommandInput[], batches: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand')
        sent.queries.push(args.input as QueryCommandInput);
      if (context.commandName === 'BatchGetItemCommand') sent.batches += 1;
      return next(args);
    },
    { step: 'initialize', name: `countRequests${Math.random()}` },
  );
  return sent;
}

describe('what a search text is tried as', () => {
  it('digits: an id, a reference prefix and a username', () => {
    expect(searchPlan('1000017').map(({ kind }) => kind)).toEqual(['id', 'reference', 'username']);
  });

  it('anything else: a reference prefix and a username, the latter folded to lower case', () => {
    expect(searchPlan('Grace.Hopper')).toEqual([
      { kind: 'reference', text: 'Grace.Hopper' },
      { kind: 'username', text: 'grace.hopper' },
    ]);
  });

  it('never a reference longer than any can be, nor one with a control character', () => {
    expect(searchPlan('x'.repeat(257)).map(({ kind }) => kind)).toEqual(['username']);
    expect(searchPlan('a\u0007b').map(({ kind }) => kind)).toEqual(['username']);
  });
});

describe.each(engines)('search on %s', (engine: Engine) => {
  let table: TestTable;
  let context: { client: DynamoDBClient; tableName: string };
  beforeAll(async () => {
    table = await createTestTable(engine);
    context = { client: table.client, tableName: table.tableName };
    await storeTransactions(table.client, table.tableName, records);
    // A conflicting delivery of bench-3-5 is kept for audit: it must never show as a match.
    const first = records[5] as TransactionRecord;
    await putBatch(table.client, table.tableName, [
      conflictItem({ ...first, fingerprint: 'e'.repeat(64) }),
    ]);
  }, 60_000);
  afterAll(() => table?.drop());

  it('finds references by prefix, in order, across every shard', async () => {
    const result = await searchTransactions(context, 'bench-3-5');

    // bench-3-5 and bench-3-50 … bench-3-59, in byte order.
    expect(referencesOf(result)).toEqual(
      ['5', ...Array.from({ length: 10 }, (_, i) => `5${i}`)]
        .map((tail) => `bench-3-${tail}`)
        .sort(),
    );
    expect(result.searched).toEqual([
      { kind: 'reference', text: 'bench-3-5', found: 11, more: false },
      { kind: 'username', text: 'bench-3-5', found: 0, more: false },
    ]);
  });

  it("finds the gateway's id, and says a row matched it", async () => {
    const result = await searchTransactions(context, '1000017');

    expect(referencesOf(result)).toEqual(['bench-3-17']);
    expect(result.rows[0]?.matched).toEqual(['id']);
    expect(result.searched.map(({ kind, found }) => [kind, found])).toEqual([
      ['id', 1],
      ['reference', 0],
      ['username', 0],
    ]);
  });

  it('finds a username in any letter case, showing it as sent', async () => {
    for (const typed of ['grace.hopper', 'GRACE.HOPPER', 'Grace.Hopper']) {
      const result = await searchTransactions(context, typed);
      expect(referencesOf(result)).toEqual(['bench-3-17']);
      expect(result.rows[0]?.item.username).toBe('Grace.HOPPER');
      expect(result.rows[0]?.matched).toEqual(['username']);
    }
  });

  it('shows at most the limit of each kind and says more matched', async () => {
    const result = await searchTransactions(context, 'bench-3-1', 20);

    // bench-3-1, bench-3-10 …: 111 references start so; the first 20 in byte order.
    expect(referencesOf(result)).toHaveLength(20);
    expect(referencesOf(result)[0]).toBe('bench-3-1');
    expect(result.searched[0]).toMatchObject({ kind: 'reference', found: 20, more: true });
  });

  it('costs the same number of requests whatever matches: a query per shard, one each for id and user, one batch', async () => {
    const sent = countRequests(table.client);

    await searchTransactions(context, '1000017');
    const narrow = { queries: sent.queries.length, batches: sent.batches };
    await searchTransactions(context, 'bench-3-');
    const wide = {
      queries: sent.queries.length - narrow.queries,
      batches: sent.batches - narrow.batches,
    };

    expect(narrow).toEqual({ queries: timeShards + 2, batches: 1 });
    // 400 references match `bench-3-`: each shard still asks for one page of 51.
    expect(wide).toEqual({ queries: timeShards + 1, batches: 1 });
    expect(new Set(sent.queries.map((input) => input.Limit))).toEqual(new Set([51]));
  });

  it('finds nothing for a text nothing starts with', async () => {
    const result = await searchTransactions(context, 'nothing-starts-so');

    expect(result.rows).toEqual([]);
    expect(result.searched.every(({ found }) => found === 0)).toBe(true);
  });

  it('says which kind it could not search on a table without that index, and searches the rest', async () => {
    const older = await createTestTable(
      engine,
      transactionsTableOf(transactionFields, undefined, ['byReference']),
    );
    try {
      await storeTransactions(older.client, older.tableName, records.slice(15, 20));
      const result = await searchTransactions(
        { client: older.client, tableName: older.tableName },
        '1000017',
      );
      expect(result.searched[0]).toMatchObject({ kind: 'id', found: 0 });
      expect(result.searched[0]?.unavailable).toMatch(/does not have its index yet/);
      expect(result.searched[1]).toMatchObject({ kind: 'reference', found: 0 });
      expect(result.searched[1]?.unavailable).toBeUndefined();
    } finally {
      await older.drop();
    }
  });
  it('a transaction found as two kinds shows once, saying it matched both', async () => {
    const [ada] = syntheticRecords({ count: 1, end, spanDays: 1, seed: 9 }).map((record) => ({
      ...record,
      transaction: { ...record.transaction, reference: 'ada.lovelace-1', username: 'Ada.Lovelace' },
    }));
    await storeTransactions(table.client, table.tableName, [ada as TransactionRecord]);

    const result = await searchTransactions(context, 'ada.lovelace');

    expect(referencesOf(result)).toEqual(['ada.lovelace-1']);
    expect(result.rows[0]?.matched).toEqual(['reference', 'username']);
  });

  /** The table's client, except that a query of `index` fails with `failure`. */
  const failingOn = (index: 'byGatewayId', failure: unknown) => ({
    tableName: table.tableName,
    client: new Proxy(table.client, {
      get(target, name, receiver) {
        if (name !== 'send') return Reflect.get(target, name, receiver);
        return (command: { input: { IndexName?: string } }) =>
          command.input.IndexName?.startsWith(index)
            ? Promise.reject(failure)
            : target.send(command as never);
      },
    }) as DynamoDBClient,
  });
  const named = (name: string, message: string) => Object.assign(new Error(message), { name });

  it('says an index still being built cannot be searched yet, and searches the rest', async () => {
    const backfilling = named(
      'ValidationException',
      'Cannot read from backfilling global secondary index: byGatewayId',
    );

    const result = await searchTransactions(failingOn('byGatewayId', backfilling), '1000017');

    expect(result.searched[0]).toMatchObject({
      kind: 'id',
      found: 0,
      unavailable: 'its index is still being built',
    });
    expect(result.searched[1]).toMatchObject({ kind: 'reference', found: 0 });
  });

  it('any other failure of a search fails the search rather than being shown as no match', async () => {
    for (const failure of [
      named('ValidationException', 'One or more parameter values were invalid'),
      named(
        'ProvisionedThroughputExceededException',
        'Rate of requests exceeds the allowed throughput',
      ),
      'not an error at all',
    ]) {
      await expect(searchTransactions(failingOn('byGatewayId', failure), '1000017')).rejects.toBe(
        failure,
      );
    }
  });
});
