import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { staticKeys } from '../../lambda/auth/accepted-keys.js';
import { receiveCallback } from '../../lambda/callback/receive-callback.js';
import { callbackHttpHandler } from '../../lambda/http/callback-http-handler.js';
import { createLogger, createMetrics } from '../../lambda/observability/telemetry.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import type { TransactionStore } from '../../lambda/storage/transaction-store.js';
import { lambdaContext } from '../../scripts/local/lambda-context.js';
import { MemoryRefusalStore } from '../../scripts/shared/memory-refusal-store.js';
import type { Invoke } from '../support/subject.js';

/** Our handler, wired as lambda/receiver.ts wires it, around the given store. */
export function oursWith(store: TransactionStore, keys: readonly string[]): Invoke {
  const handler = callbackHttpHandler({
    keys: staticKeys(keys),
    receive: receiveCallback({ store, hashMode: 'if-present' }),
    refusals: new MemoryRefusalStore(),
    logger: createLogger(),
    metrics: createMetrics(),
  });
  return (event) => handler(event, lambdaContext('bench', 10_000));
}

export function oursOnDynamoDb(
  client: DynamoDBClient,
  tableName: string,
  keys: readonly string[],
): Invoke {
  return oursWith(new DynamoDbTransactionStore(client, tableName), keys);
}
