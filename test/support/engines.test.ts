import {
  ConditionalCheckFailedException,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  type PutItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactionsTable } from '../../lambda/storage/table-definition.js';
import { findJava } from '../../scripts/dev/dynamodb-local/start.js';
import {
  createTestTable,
  type Engine,
  engineEndpoint,
  engines,
  type TestTable,
} from './engines.js';

/** The harness itself: which engines run, and the behaviour the rest of the suite relies on. */
it('runs the suite on dynalite and DynamoDB Local, dropping DynamoDB Local only without Java', async () => {
  const java = await findJava();

  expect(engines).toEqual(java ? ['dynalite', 'dynamodb-local'] : ['dynalite']);
});

describe.each(engines)('the %s engine', (engine: Engine) => {
  let table: TestTable;
  beforeAll(async () => {
    table = await createTestTable(engine);
  });
  afterAll(() => table?.drop());

  /** A first-write-wins put, as the receiver records a callback (`reference` is reserved). */
  const putOnce = (reference: string, amount: string): PutItemCommandInput => ({
    TableName: table.tableName,
    Item: { reference: { S: reference }, amount: { N: amount } },
    ConditionExpression: 'attribute_not_exists(#r)',
    ExpressionAttributeNames: { '#r': 'reference' },
  });

  it('creates the table from the shared definition: ACTIVE, keyed by reference, with its 5 GSIs', async () => {
    const { Table } = await table.client.send(
      new DescribeTableCommand({ TableName: table.tableName }),
    );

    expect(Table?.TableStatus).toBe('ACTIVE');
    expect(Table?.KeySchema).toEqual([{ AttributeName: 'reference', KeyType: 'HASH' }]);
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      indexName: index.IndexName,
      keys: index.KeySchema?.map((key) => [key.AttributeName, key.KeyType]),
      projection: index.Projection?.ProjectionType,
    }));
    expect(indexes).toHaveLength(5);
    expect(indexes).toEqual(
      expect.arrayContaining(
        transactionsTable.indexes.map((index) => ({
          indexName: index.indexName,
          keys: [
            [index.partitionKey, 'HASH'],
            [index.sortKey, 'RANGE'],
          ],
          projection:
            index.projection === 'all'
              ? 'ALL'
              : index.projection === 'keys'
                ? 'KEYS_ONLY'
                : 'INCLUDE',
        })),
      ),
    );
  });

  it('accepts a put conditioned on attribute_not_exists(#r) once, then fails it with ConditionalCheckFailedException', async () => {
    await table.client.send(new PutItemCommand(putOnce('ref-once', '100')));

    await expect(
      table.client.send(new PutItemCommand(putOnce('ref-once', '200'))),
    ).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });

  const oldItemBehaviour =
    engine === 'dynamodb-local'
      ? 'returns the stored item on a failed condition with ReturnValuesOnConditionCheckFailure ALL_OLD'
      : 'ignores ReturnValuesOnConditionCheckFailure ALL_OLD: no stored item on a failed condition';
  it(oldItemBehaviour, async () => {
    await table.client.send(new PutItemCommand(putOnce('ref-old-item', '100')));

    const failure = await table.client
      .send(
        new PutItemCommand({
          ...putOnce('ref-old-item', '200'),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );

    expect(failure).toBeInstanceOf(ConditionalCheckFailedException);
    const oldItem = (failure as ConditionalCheckFailedException).Item;
    if (engine === 'dynamodb-local') {
      expect(oldItem).toEqual({ reference: { S: 'ref-old-item' }, amount: { N: '100' } });
    } else {
      expect(oldItem).toBeUndefined();
    }
  });

  it('shows the same tables to any access key and region (DynamoDB Local needs -sharedDb)', async () => {
    const stranger = new DynamoDBClient({
      endpoint: engineEndpoint(engine),
      region: 'eu-west-1',
      // DynamoDB Local accepts only letters and digits in an access key id.
      credentials: { accessKeyId: 'someoneElse', secretAccessKey: 'other' },
    });
    try {
      const { Table } = await stranger.send(
        new DescribeTableCommand({ TableName: table.tableName }),
      );

      expect(Table?.TableName).toBe(table.tableName);
    } finally {
      stranger.destroy();
    }
  });
});
