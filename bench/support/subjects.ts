import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import { Logger } from '@aws-lambda-powertools/logger';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { loadConfig } from '../../lambda/config/config.js';
import { createReceiver } from '../../lambda/create-receiver.js';
import { DynamoDbRefusalStore } from '../../lambda/refusals/dynamodb-refusal-store.js';
import type { RefusalStore } from '../../lambda/refusals/refusal.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import type { TransactionStore } from '../../lambda/storage/transaction-store.js';
import { lambdaContext } from '../../scripts/local/lambda-context.js';
import { MemoryRefusalStore } from '../../test/support/memory-refusal-store.js';
import { MemoryTransactionStore } from '../../test/support/memory-transaction-store.js';
import {
  baselineHandler,
  dynamoDbTransactionWriter,
  type TransactionWriter,
} from '../baseline/baseline-handler.js';
import { MemoryPersistenceLayer } from '../baseline/memory-persistence-layer.js';
import { benchKey } from './deliveries.js';
import type { BenchTables } from './engines.js';

/** The two receivers the benchmark compares, always in this order. */
export const subjectNames = ['ours', 'baseline'] as const;
export type SubjectName = (typeof subjectNames)[number];

/** A receiver under measurement, invoked as Lambda invokes it. */
export type Invoke = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;
export type Subjects = Record<SubjectName, Invoke>;

const context = () => lambdaContext('bench', 10_000);

/**
 * Ours as lambda/receiver.ts builds it, around the given stores, with EMF metrics on as deployed.
 */
function ours(store: TransactionStore, refusals: RefusalStore): Invoke {
  const config = loadConfig({ TABLE_NAME: 'given-store', CALLBACK_API_KEYS: benchKey });
  const { handler } = createReceiver(config, { store, refusals });
  return (event) => handler(event, context());
}

function baseline(persistenceStore: BasePersistenceLayer, transactions: TransactionWriter): Invoke {
  const handler = baselineHandler({
    keys: [benchKey],
    persistenceStore,
    transactions,
    logger: new Logger({ serviceName: 'callback-receiver-baseline' }),
  });
  return (event) => handler(event, context());
}

/** Both with no SDK at all: ours behind its store interface, the baseline on `Map`s. */
export function inMemorySubjects(): Subjects {
  const items = new Map<unknown, unknown>();
  return {
    ours: ours(new MemoryTransactionStore(), new MemoryRefusalStore()),
    baseline: baseline(new MemoryPersistenceLayer(), async (item) => {
      items.set(item.reference, item);
    }),
  };
}

/** Both on DynamoDB through `client`, each in its own tables. */
export function dynamoDbSubjects(client: DynamoDBClient, tables: BenchTables): Subjects {
  return {
    ours: ours(
      new DynamoDbTransactionStore(client, tables.ours),
      new DynamoDbRefusalStore(client, tables.refusals),
    ),
    baseline: baseline(
      new DynamoDBPersistenceLayer({ tableName: tables.idempotency, awsSdkV3Client: client }),
      dynamoDbTransactionWriter(client, tables.baseline),
    ),
  };
}
