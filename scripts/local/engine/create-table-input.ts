import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { refusalsTableDefinition } from '../../../lambda/refusals/refusals-table.js';
import {
  keyAttributesOf,
  type TableDefinition,
  transactionsTable,
} from '../../../lambda/storage/table-definition.js';

/** `CreateTable` from the stack's definitions, for engines CDK does not provision. */
export function createTableInput(
  tableName: string,
  table: TableDefinition = transactionsTable,
): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributesOf(table).map(({ name, type }) => ({
      AttributeName: name,
      AttributeType: type,
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
          : index.projection === 'keys'
            ? { ProjectionType: 'KEYS_ONLY' }
            : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
  };
}

/**
 * The refusals table from its shared definition (key and index), as in the stack but without a
 * stream; no TTL (not every local engine has it): locally nothing expires.
 */
export function refusalsTableInput(tableName: string): CreateTableCommandInput {
  const { StreamSpecification: _noStream, ...input } = createTableInput(
    tableName,
    refusalsTableDefinition,
  );
  return input;
}
