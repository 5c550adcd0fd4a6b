import { staticKeys } from './auth/accepted-keys.js';
import { secretKeys } from './auth/secret-keys.js';
import { receiveCallback } from './callback/receive-callback.js';
import { loadConfig } from './config/config.js';
import { callbackHttpHandler } from './http/callback-http-handler.js';
import { createLogger, createMetrics } from './observability/telemetry.js';
import { DynamoDbRefusalStore } from './refusals/dynamodb-refusal-store.js';
import { createDynamoDbClient } from './storage/dynamodb-client.js';
import { DynamoDbTransactionStore } from './storage/dynamodb-transaction-store.js';

/**
 * The Lambda entry: composition only. Everything here runs once per cold start; a bad
 * configuration throws now, naming the variable, instead of failing callbacks one by one.
 */
const config = loadConfig();
const client = createDynamoDbClient(config.dynamodb);
const attempts = {
  attemptTimeoutMs: config.dynamodb.timeoutMs,
  maxAttempts: config.dynamodb.maxAttempts,
};
const store = new DynamoDbTransactionStore(client, config.tableName, attempts);
const refusals = new DynamoDbRefusalStore(client, config.refusals.tableName, {
  retentionDays: config.refusals.retentionDays,
  attempts,
});

export const handler = callbackHttpHandler({
  keys:
    config.apiKeys.source === 'environment'
      ? staticKeys(config.apiKeys.keys)
      : secretKeys(config.apiKeys.secretId, config.secretsManager),
  receive: receiveCallback({ store, hashMode: config.hashMode }),
  refusals,
  logger: createLogger(),
  metrics: createMetrics(),
  timeBudgetMarginMs: config.timeBudgetMarginMs,
});
