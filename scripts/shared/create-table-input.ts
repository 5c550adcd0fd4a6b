import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import {
  keyAttributeNames,
  type TableDefinition,
  transactionsTable,
} from '../../lambda/storage/table-definition.js';

/**
 * The `CreateTable` request for an engine that is not provisioned by CDK (local mode, tests).
 * Built from the same definition as the stack; the stream mirrors the stack's new-image stream.
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
