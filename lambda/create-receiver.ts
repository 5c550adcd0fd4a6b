import type { DynamoDBClient, DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { type KeyProvider, staticKeys } from './auth/accepted-keys.js';
import { secretKeys } from './auth/secret-keys.js';
import { receiveCallback } from './callback/receive-callback.js';
import type { TransactionFields } from './callback/transaction-fields.js';
import type { Config } from './config/config.js';
import { type CallbackHandler, callbackHttpHandler } from './http/callback-http-handler.js';
import { createLogger } from './observability/telemetry.js';
import { DynamoDbRefusalStore } from './refusals/dynamodb-refusal-store.js';
import type { RefusalStore } from './refusals/refusal.js';
import { createDynamoDbClient } from './storage/dynamodb-client.js';
import { DynamoDbTransactionStore } from './storage/dynamodb-transaction-store.js';
import type { TransactionStore } from './storage/transaction-store.js';

/**
 * What a caller may put in place of the parts `config` describes: local mode points the client
 * at its engine, tests and the benchmark hand in stores and key providers of their own. Lambda
 * passes nothing.
 */
export interface ReceiverParts {
  /**
   * Connection settings of the DynamoDB client (a local engine's endpoint, region and
   * credentials); the per-attempt limits still come from `config`. By default the SDK's own
   * chain decides (`AWS_REGION`, the role, `AWS_ENDPOINT_URL_DYNAMODB`).
   */
  readonly dynamoDb?: Pick<DynamoDBClientConfig, 'endpoint' | 'region' | 'credentials'>;
  /** @default DynamoDB, `config.tableName` */
  readonly store?: TransactionStore;
  /** @default DynamoDB, `config.refusals.tableName` */
  readonly refusals?: RefusalStore;
  /** @default from `config.apiKeys`: the listed keys, or the Secrets Manager secret */
  readonly keys?: KeyProvider;
  readonly now?: () => Date;
  /** The transaction's declaration: tests pass a fixture's. @default transactionFields */
  readonly fields?: TransactionFields;
}

export interface Receiver {
  /** The handler as Lambda calls it. */
  readonly handler: CallbackHandler;
  /** Closes the DynamoDB client's connections (local mode, tests); Lambda never calls it. */
  close(): void;
}

/**
 * The receiver's composition root: everything a callback needs, built from `config` and
 * nothing else (no environment, no module state), so Lambda, local mode, the tests and the
 * benchmark build the same receiver, and two receivers in one process never share a part.
 */
export function createReceiver(config: Config, parts: ReceiverParts = {}): Receiver {
  // Built only when a DynamoDB store needs it.
  let client: DynamoDBClient | undefined;
  const dynamoDb = () =>
    (client ??= createDynamoDbClient({ timeoutMs: config.dynamodb.timeoutMs, ...parts.dynamoDb }));
  const attempts = {
    attemptTimeoutMs: config.dynamodb.timeoutMs,
    maxAttempts: config.dynamodb.maxAttempts,
  };
  const store = parts.store ?? new DynamoDbTransactionStore(dynamoDb(), config.tableName, attempts);
  const refusals =
    parts.refusals ??
    new DynamoDbRefusalStore(dynamoDb(), config.refusals.tableName, {
      retentionDays: config.refusals.retentionDays,
      keptPerMinute: config.refusals.keptPerMinute,
      attempts,
    });
  const handler = callbackHttpHandler({
    keys: parts.keys ?? keysOf(config),
    receive: receiveCallback({
      store,
      hashMode: config.hashMode,
      ...(parts.fields ? { fields: parts.fields } : {}),
    }),
    refusals,
    logger: createLogger(config.telemetry),
    telemetry: config.telemetry,
    timeBudgetMarginMs: config.timeBudgetMarginMs,
    ...(parts.now ? { now: parts.now } : {}),
  });
  return { handler, close: () => client?.destroy() };
}

function keysOf(config: Config): KeyProvider {
  return config.apiKeys.source === 'environment'
    ? staticKeys(config.apiKeys.keys)
    : secretKeys(config.apiKeys.secretId, config.secretsManager);
}
