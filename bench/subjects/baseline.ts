import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { lambdaContext } from '../../scripts/local/lambda-context.js';
import { baselineHandler } from '../baseline/baseline-handler.js';
import { MemoryPersistenceLayer } from '../baseline/memory-persistence-layer.js';
import {
  dynamoDbTransactionWriter,
  memoryTransactionWriter,
  type TransactionWriter,
} from '../baseline/transaction-writer.js';
import type { Invoke } from '../support/subject.js';

/** Table names the baseline needs: its transactions, and Powertools' idempotency records. */
export interface BaselineTables {
  readonly transactions: string;
  readonly idempotency: string;
}

function baselineWith(
  persistenceStore: BasePersistenceLayer,
  transactions: TransactionWriter,
  keys: readonly string[],
): Invoke {
  const handler = baselineHandler({
    keys,
    persistenceStore,
    transactions,
    logger: new Logger({ serviceName: 'callback-receiver-baseline' }),
  });
  return (event) => handler(event, lambdaContext('bench', 10_000));
}

export function baselineOnDynamoDb(
  client: DynamoDBClient,
  tables: BaselineTables,
  keys: readonly string[],
): Invoke {
  return baselineWith(
    new DynamoDBPersistenceLayer({ tableName: tables.idempotency, awsSdkV3Client: client }),
    dynamoDbTransactionWriter(client, tables.transactions),
    keys,
  );
}

export function baselineInMemory(keys: readonly string[]): Invoke {
  return baselineWith(new MemoryPersistenceLayer(), memoryTransactionWriter(), keys);
}
