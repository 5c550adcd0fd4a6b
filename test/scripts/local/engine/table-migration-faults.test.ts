import {
  BatchWriteItemCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  DynamoDBServiceException,
  paginateScan,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import {
  transactionsTable,
  transactionsTableOf,
} from '../../../../lambda/storage/table-definition.js';
import { createTableInput } from '../../../../scripts/local/engine/create-table-input.js';
import { migrateTable } from '../../../../scripts/local/engine/table-migration.js';
import { createTestTable, engines, type TestTable } from '../../../support/engines.js';
import { feeFields, feeTable } from '../../../support/fee-fields.js';
import { callbackEvent, signed, transaction } from '../../../support/fixtures.js';
import { receiverWith } from '../../../support/receiver.js';

/**
 * A migration meeting what an engine does under load or refuses, which neither local engine
 * does on demand: the real engine behind a client that throttles or refuses one kind of call.
 */

type Send = DynamoDBClient['send'];

/** `client`, but `intercept` answers first: a value it returns is the answer; undefined passes. */
function intercepted(
  client: DynamoDBClient,
  intercept: (command: unknown) => Promise<unknown> | undefined,
): DynamoDBClient {
  const send = ((command: Parameters<Send>[0]) =>
    intercept(command) ?? client.send(command)) as Send;
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === 'send' ? send : Reflect.get(target, property, receiver),
  });
}

const serviceError = (name: string, message: string) =>
  new DynamoDBServiceException({ name, $fault: 'client', $metadata: {}, message });

async function scanAll(client: DynamoDBClient, tableName: string) {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client }, { TableName: tableName })) {
    items.push(...(page.Items ?? []));
  }
  const key = (item: Record<string, unknown>) => JSON.stringify(item.reference);
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}

async function indexNames(client: DynamoDBClient, tableName: string) {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  return (Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort();
}

describe.each(engines)('a migration under faults, on %s', (engine) => {
  let table: TestTable;
  beforeEach(async () => {
    table = await createTestTable(engine, transactionsTable);
  });
  afterEach(() => table.drop());

  const record = async (count: number) => {
    const invoke = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), {
      fields: feeFields,
    });
    for (let i = 0; i < count; i++) {
      expect((await invoke(callbackEvent(signed(transaction())))).statusCode).toBe(204);
    }
  };

  it('stops with the engine’s error when it cannot describe the table', async () => {
    const denied = serviceError('AccessDeniedException', 'not allowed to describe');
    const client = intercepted(table.client, (command) =>
      command instanceof DescribeTableCommand ? Promise.reject(denied) : undefined,
    );

    await expect(migrateTable(client, createTableInput(table.tableName, feeTable))).rejects.toThrow(
      denied,
    );
  });

  it.runIf(engine === 'dynamodb-local')(
    'stops with the engine’s error when it refuses a new index for a reason other than its input',
    async () => {
      const staged = transactionsTableOf(feeFields, { byUser: [1, 2], byTime: [1] });
      const limit = serviceError('LimitExceededException', 'too many index operations');
      const client = intercepted(table.client, (command) =>
        command instanceof UpdateTableCommand ? Promise.reject(limit) : undefined,
      );

      await expect(migrateTable(client, createTableInput(table.tableName, staged))).rejects.toThrow(
        limit,
      );
      // Nothing was rebuilt in its stead: the table keeps its indexes.
      expect(await indexNames(table.client, table.tableName)).toEqual(
        transactionsTable.indexes.map((index) => index.indexName).sort(),
      );
    },
  );

  it('copies every item when the engine leaves part of a batch unprocessed', async () => {
    await record(3);
    const before = await scanAll(table.client, table.tableName);
    // The rebuild's copies: each batch first answered "all but the first unprocessed", without
    // writing them, as a throttled table does; the retry goes through.
    let throttled = 0;
    const client = intercepted(table.client, (command) => {
      if (!(command instanceof BatchWriteItemCommand) || throttled >= 2) return undefined;
      const [entry] = Object.entries(command.input.RequestItems ?? {});
      if (!entry) return undefined;
      const [name, requests] = entry;
      if (requests.length < 2) return undefined;
      throttled += 1;
      const [first, rest] = [requests.slice(0, 1), requests.slice(1)];
      const part = new BatchWriteItemCommand({ RequestItems: { [name]: first } });
      return table.client.send(part).then(() => ({ UnprocessedItems: { [name]: rest } }));
    });
    // An index update taken and ignored, as dynalite does: the table is rebuilt by copy, on
    // either engine.
    const ignoring = intercepted(client, (command) =>
      command instanceof UpdateTableCommand
        ? table.client
            .send(new DescribeTableCommand({ TableName: table.tableName }))
            .then(({ Table }) => ({ TableDescription: Table }))
        : undefined,
    );

    const changes = await migrateTable(ignoring, createTableInput(table.tableName, feeTable));

    expect(changes).toContain('by copying the table');
    expect(throttled).toBe(2);
    expect(await scanAll(table.client, table.tableName)).toEqual(before);
    expect(await indexNames(table.client, table.tableName)).toEqual(
      feeTable.indexes.map((index) => index.indexName).sort(),
    );
  });
});
