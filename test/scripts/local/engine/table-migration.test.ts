import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  paginateScan,
  QueryCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonNumber } from '../../../../lambda/json/json-number.js';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import {
  transactionsTable,
  transactionsTableOf,
} from '../../../../lambda/storage/table-definition.js';
import { createTableInput } from '../../../../scripts/local/engine/create-table-input.js';
import { migrateTable, spareTableName } from '../../../../scripts/local/engine/table-migration.js';
import { displayValue } from '../../../../scripts/table/stored-item.js';
import { timeWindow } from '../../../../scripts/table/time-window.js';
import { listByTime, listByUsername } from '../../../../scripts/table/transaction-queries.js';
import { createTestTable, engines, type TestTable } from '../../../support/engines.js';
import { feeFields, feeTable } from '../../../support/fee-fields.js';
import { callbackEvent, signed, transaction } from '../../../support/fixtures.js';
import { receiverWith } from '../../../support/receiver.js';

/** Every item, as the engine returns it, in key order: what a migration must leave as it was. */
async function scanAll(client: DynamoDBClient, tableName: string) {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client }, { TableName: tableName })) {
    items.push(...(page.Items ?? []));
  }
  const key = (item: Record<string, unknown>) => JSON.stringify(item.reference);
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function indexesOf(client: DynamoDBClient, tableName: string) {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  return (Table?.GlobalSecondaryIndexes ?? [])
    .map((index) => `${index.IndexName} ${index.IndexStatus}`)
    .sort();
}

async function exists(client: DynamoDBClient, tableName: string) {
  return client.send(new DescribeTableCommand({ TableName: tableName })).then(
    () => true,
    (error: unknown) => {
      if (error instanceof ResourceNotFoundException) return false;
      throw error;
    },
  );
}

const activeIndexesOf = (definition: typeof feeTable) =>
  definition.indexes.map((index) => `${index.indexName} ACTIVE`).sort();

describe.each(engines)('a table made under an older declaration, on %s', (engine) => {
  let table: TestTable;
  // Made by the product's declaration (list indexes on version 1), as a data folder made before
  // the fixture's listed `fee` (version 2) was declared.
  beforeEach(async () => {
    table = await createTestTable(engine, transactionsTable);
  });
  afterEach(() => table.drop());

  const window = () =>
    timeWindow(
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 60_000).toISOString(),
    );
  const store = () => new DynamoDbTransactionStore(table.client, table.tableName);
  const record = async (count: number, fields = {}) => {
    const invoke = receiverWith(store(), { fields: feeFields });
    for (let i = 0; i < count; i++) {
      const response = await invoke(callbackEvent(signed(transaction(fields))));
      expect(response.statusCode).toBe(204);
    }
  };

  it('opens under the new one with its items as they were, and the new indexes answer', async () => {
    // Prepare: stored under the old indexes, the fee kept on the item as the field.
    await record(3, { fee: new JsonNumber('1.5') });
    const before = await scanAll(table.client, table.tableName);

    // Act
    const changes = await migrateTable(table.client, createTableInput(table.tableName, feeTable));

    // Assess
    expect(changes).toEqual(expect.arrayContaining(['created byUserV2', 'deleted byUser']));
    expect(await indexesOf(table.client, table.tableName)).toEqual(activeIndexesOf(feeTable));
    expect(await scanAll(table.client, table.tableName)).toEqual(before);
    expect(await exists(table.client, spareTableName(table.tableName))).toBe(false);
    const context = { client: table.client, tableName: table.tableName, fields: feeFields };
    const byUser = await collect(listByUsername(context, 'deniz.kaya', {}));
    const byTime = await collect(listByTime(context, window(), {}));
    expect(byUser).toHaveLength(3);
    expect(byTime).toHaveLength(3);
    // The new list indexes project the field: the list view shows it without reading the items.
    expect(byTime.map((item) => displayValue(item.fee))).toEqual(['1.5', '1.5', '1.5']);
    await record(1);
    expect(await collect(listByTime(context, window(), {}))).toHaveLength(4);
  });

  it('takes one staged step as one index change', async () => {
    await record(2);
    const before = await scanAll(table.client, table.tableName);
    const staged = transactionsTableOf(feeFields, { byUser: [1, 2], byTime: [1] });

    const changes = await migrateTable(table.client, createTableInput(table.tableName, staged));

    // DynamoDB Local builds the index in place; dynalite takes the update and ignores it, so
    // the table is rebuilt by copy instead.
    expect(changes).toEqual(
      engine === 'dynamodb-local'
        ? ['created byUserV2']
        : ['created byUserV2', 'by copying the table'],
    );
    expect(await indexesOf(table.client, table.tableName)).toEqual(activeIndexesOf(staged));
    expect(await scanAll(table.client, table.tableName)).toEqual(before);
    // The new index answers with every item (DynamoDB refuses to read one still backfilling).
    const answer = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        IndexName: 'byUserV2',
        KeyConditionExpression: 'usernameKey = :u',
        ExpressionAttributeValues: { ':u': { S: 'deniz.kaya' } },
      }),
    );
    expect(answer.Count).toBe(2);
  });

  it('changes nothing when the indexes already match', async () => {
    await record(1);
    const input = createTableInput(table.tableName, transactionsTable);

    expect(await migrateTable(table.client, input)).toEqual([]);
    expect(await indexesOf(table.client, table.tableName)).toEqual(
      activeIndexesOf(transactionsTable),
    );
  });

  it('finishes a rebuild cut short after the table was dropped: the spare held every item', async () => {
    // Prepare: the state a rebuild leaves when killed between dropping the table and copying
    // back (the items in the spare only).
    await record(2);
    const before = await scanAll(table.client, table.tableName);
    const spare = spareTableName(table.tableName);
    await table.client.send(new CreateTableCommand(createTableInput(spare, transactionsTable)));
    await copyItems(table.client, table.tableName, spare);
    await table.client.send(new DeleteTableCommand({ TableName: table.tableName }));

    // Act
    const changes = await migrateTable(table.client, createTableInput(table.tableName, feeTable));

    // Assess
    expect(changes).toEqual(['finished an interrupted rebuild']);
    expect(await scanAll(table.client, table.tableName)).toEqual(before);
    expect(await indexesOf(table.client, table.tableName)).toEqual(activeIndexesOf(feeTable));
    expect(await exists(table.client, spare)).toBe(false);
  });

  it('starts a rebuild again when it was cut short while the table still had every item', async () => {
    // Prepare: a spare left half full (here: empty) beside the untouched table.
    await record(2);
    const before = await scanAll(table.client, table.tableName);
    const spare = spareTableName(table.tableName);
    await table.client.send(new CreateTableCommand(createTableInput(spare, feeTable)));

    // Act
    const changes = await migrateTable(table.client, createTableInput(table.tableName, feeTable));

    // Assess
    expect(changes).toContain('by copying the table');
    expect(await scanAll(table.client, table.tableName)).toEqual(before);
    expect(await indexesOf(table.client, table.tableName)).toEqual(activeIndexesOf(feeTable));
    expect(await exists(table.client, spare)).toBe(false);
  });
});

/** Every item of `from` put in `to`, as a rebuild's first step does. */
async function copyItems(client: DynamoDBClient, from: string, to: string) {
  for (const item of await scanAll(client, from)) {
    await client.send(
      new BatchWriteItemCommand({
        RequestItems: { [to]: [{ PutRequest: { Item: item as never } }] },
      }),
    );
  }
}
