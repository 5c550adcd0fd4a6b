import { beforeAll, describe, expect, it } from 'vitest';
import { ItemRejectedError } from '../../../lambda/callback/errors.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engines, type TestTable } from '../../support/engines.js';
import { transaction } from '../../support/fixtures.js';
import { storedItem } from '../../support/stored-items.js';
import { recordOf } from '../../support/stream-records.js';

/**
 * DynamoDB refusing the item itself is not an outage: retrying cannot help, so the store reports
 * an ItemRejectedError (500), never the retryable StoreUnavailableError (503). The refusals come
 * from the engines themselves.
 */
describe.each(engines)('items the store refuses on %s', (engine) => {
  let table: TestTable;
  let store: DynamoDbTransactionStore;

  beforeAll(async () => {
    table = await createTestTable(engine);
    store = new DynamoDbTransactionStore(table.client, table.tableName);
  });

  const stored = (reference: string) => storedItem(table, { reference });

  it('reports an item over 400 KB as rejected for its size, and stores nothing', async () => {
    const fields = transaction();
    const record = recordOf(fields, { rawBody: `${JSON.stringify(fields)}${' '.repeat(410_000)}` });
    const refusal = await store.putIfAbsent(record).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ItemRejectedError);
    expect((refusal as ItemRejectedError).reason).toBe('item-too-large');
    expect((refusal as ItemRejectedError).status).toBe(500);
    expect(await stored(fields.reference as string)).toBeUndefined();
  });

  it('reports a number DynamoDB cannot hold (over 38 digits) as an invalid item', async () => {
    const fields = transaction();
    const record = recordOf(fields);
    const tooPrecise = {
      ...record.transaction,
      amount: '1234567890123456789012345678901234567891',
    };
    const refusal = await store
      .putIfAbsent({ ...record, transaction: tooPrecise })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ItemRejectedError);
    expect((refusal as ItemRejectedError).reason).toBe('invalid-item');
    expect(await stored(fields.reference as string)).toBeUndefined();
  });
});
