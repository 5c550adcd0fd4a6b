import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { transactionFields } from '../../../../lambda/callback/transaction-fields.js';
import { transactionsTableOf } from '../../../../lambda/storage/table-definition.js';
import { transactionItem } from '../../../../lambda/storage/transaction-item.js';
import { ensureTable } from '../../../../scripts/local/engine/local-engine.js';
import { searchTransactions } from '../../../../scripts/table/transaction-search.js';
import { createTestTable, engines, type TestTable } from '../../../support/engines.js';
import { putBatch } from '../../../support/put-batch.js';
import { syntheticRecords } from '../../../support/stored-transactions.js';

/** Three transactions as a version before search wrote them: the username key as sent. */
const records = syntheticRecords({ count: 3, spanDays: 1, end: new Date('2026-11-20'), seed: 9 });
const olderItems = records.map((record, i) => {
  const username = ['Deniz.Kaya', 'deniz.kaya', 'ALI'][i] as string;
  return {
    ...transactionItem({ ...record, transaction: { ...record.transaction, username } }),
    usernameKey: { S: username },
  };
});

describe.each(engines)('a data folder made before search, on %s', (engine) => {
  let table: TestTable;
  beforeEach(async () => {
    table = await createTestTable(engine, transactionsTableOf(transactionFields, undefined, []));
    await putBatch(table.client, table.tableName, olderItems);
  });
  afterEach(() => table.drop());

  it('opens with both search indexes and its username keys in lower case, every kind found', async () => {
    const notes = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await ensureTable(table.client, table.tableName, { create: true })).toBe('migrated');
      expect(String(notes.mock.calls.at(-1)?.[0])).toMatch(
        /created byReference.*created byGatewayId.*2 username keys put in lower case/,
      );
    } finally {
      notes.mockRestore();
    }
    const context = { client: table.client, tableName: table.tableName };

    const byUser = await searchTransactions(context, 'DENIZ.KAYA');
    expect(byUser.rows.map((row) => row.item.username).sort()).toEqual([
      'Deniz.Kaya',
      'deniz.kaya',
    ]);
    const reference = records[2]?.transaction.reference as string;
    const byPrefix = await searchTransactions(context, reference.slice(0, -1));
    expect(byPrefix.rows.map((row) => row.item.reference)).toContain(reference);
    const byId = await searchTransactions(context, records[2]?.transaction.id as string);
    expect(byId.rows.map((row) => [row.item.reference, row.matched])).toEqual([
      [reference, ['id']],
    ]);
  });
});
