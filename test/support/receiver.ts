import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { vi } from 'vitest';
import { type KeyProvider, staticKeys } from '../../lambda/auth/accepted-keys.js';
import { receiveCallback } from '../../lambda/callback/receive-callback.js';
import type { HashMode } from '../../lambda/config/config.js';
import { callbackHttpHandler } from '../../lambda/http/callback-http-handler.js';
import { createLogger, createMetrics } from '../../lambda/observability/telemetry.js';
import type { RefusalStore } from '../../lambda/refusals/refusal.js';
import type { TransactionStore } from '../../lambda/storage/transaction-store.js';
import { MemoryRefusalStore } from '../../scripts/shared/memory-refusal-store.js';
import { stubAwsEnvironment } from './engines.js';
import { lambdaContext, specKey } from './fixtures.js';

interface ReceiverOptions {
  /** The accepted keys, or a provider of them (e.g. `secretKeys`). @default [specKey] */
  readonly keys?: string[] | KeyProvider;
  readonly hashMode?: HashMode;
  /** @default refusals kept in memory */
  readonly refusals?: RefusalStore;
  readonly timeBudgetMarginMs?: number;
}

/**
 * The real middy handler, wired as lambda/receiver.ts wires it, around a store of the test's
 * choosing. Returns a function that invokes it like Lambda would (with `context`, when given).
 */
export function receiverWith(store: TransactionStore, options: ReceiverOptions = {}) {
  const { keys = [specKey], hashMode = 'if-present', timeBudgetMarginMs } = options;
  const handler = callbackHttpHandler({
    keys: Array.isArray(keys) ? staticKeys(keys) : keys,
    receive: receiveCallback({ store, hashMode }),
    refusals: options.refusals ?? new MemoryRefusalStore(),
    logger: createLogger(),
    metrics: createMetrics(),
    timeBudgetMarginMs,
  });
  return (event: APIGatewayProxyEvent, context: Context = lambdaContext) => handler(event, context);
}

/**
 * A fresh instance of the Lambda entry lambda/receiver.ts, configured only through the
 * environment (e.g. `TABLE_NAME`, `CALLBACK_API_KEYS`, `AWS_ENDPOINT_URL_DYNAMODB`), as Lambda
 * runs it; `vi.unstubAllEnvs()` undoes the environment.
 */
export async function receiverEntry(environment: Record<string, string>) {
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  stubAwsEnvironment();
  vi.resetModules();
  const { handler } = await import('../../lambda/receiver.js');
  return (event: APIGatewayProxyEvent) => handler(event, lambdaContext);
}
