import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { refusalsTable } from '../../lambda/refusals/refusals-table.js';
import {
  keyAttributeNames,
  type TableDefinition,
  transactionsTable,
} from '../../lambda/storage/table-definition.js';

/**
 * `CreateTable` requests for an engine that CDK does not provision (local mode, tests), built
 * from the definitions the stack uses. The transactions table gets the stack's new-image stream.
 */
export function createTableInput(
  tableName: string,
  table: TableDefinition = transactionsTable,
): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributeNames(table).map((name) => ({
      AttributeName: name,
      AttributeType: 'S',
    })),
    KeySchema: [{ AttributeName: table.partitionKey, KeyType: 'HASH' }],
    GlobalSecondaryIndexes: table.indexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection:
        index.projection === 'all'
          ? { ProjectionType: 'ALL' }
          : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
  };
}

/**
 * The refusals table: its key only, no stream and no index, as in the stack. TTL is a separate
 * call that not every local engine supports; locally nothing expires.
 */
export function refusalsTableInput(tableName: string): CreateTableCommandInput {
  const key = refusalsTable.partitionKey;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
    KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
  };
}
