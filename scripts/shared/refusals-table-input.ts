import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { refusalsTable } from '../../lambda/refusals/refusals-table.js';

/**
 * The `CreateTable` request for the refusals table where CDK does not provision it (local mode,
 * tests): the key of the shared definition, no stream and no index, as in the stack. TTL is a
 * separate call that not every local engine supports; locally nothing expires.
 */
export function refusalsTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: refusalsTable.partitionKey, AttributeType: 'S' }],
    KeySchema: [{ AttributeName: refusalsTable.partitionKey, KeyType: 'HASH' }],
  };
}
