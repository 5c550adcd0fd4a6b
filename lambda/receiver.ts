import { staticKeys } from './auth/accepted-keys.js';
import { secretKeys } from './auth/secret-keys.js';
import { receiveCallback } from './callback/receive-callback.js';
import { loadConfig } from './config/config.js';
import { callbackHttpHandler } from './http/callback-http-handler.js';
import { createLogger, createMetrics } from './observability/telemetry.js';
import { createDynamoDbClient } from './storage/dynamodb-client.js';
import { DynamoDbTransactionStore } from './storage/dynamodb-transaction-store.js';

/**
 * The Lambda entry: composition only. Everything here runs once per cold start; a bad
 * configuration throws now, naming the variable, instead of failing callbacks one by one.
 */
const config = loadConfig();
const store = new DynamoDbTransactionStore(
  createDynamoDbClient(config.dynamodb),
  config.tableName,
  {
    attemptTimeoutMs: config.dynamodb.timeoutMs,
    maxAttempts: config.dynamodb.maxAttempts,
  },
);

export const handler = callbackHttpHandler({
  keys:
    config.apiKeys.source === 'environment'
      ? staticKeys(config.apiKeys.keys)
      : secretKeys(config.apiKeys.secretId, config.secretsManager),
  receive: receiveCallback({ store, hashMode: config.hashMode }),
  logger: createLogger(),
  metrics: createMetrics(),
  timeBudgetMarginMs: config.timeBudgetMarginMs,
});
