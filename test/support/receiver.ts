import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { vi } from 'vitest';
import { type KeyProvider, staticKeys } from '../../lambda/auth/accepted-keys.js';
import type { TransactionFields } from '../../lambda/callback/transaction-fields.js';
import { type Config, type HashMode, loadConfig } from '../../lambda/config/config.js';
import { createReceiver } from '../../lambda/create-receiver.js';
import type { RefusalStore } from '../../lambda/refusals/refusal.js';
import type { TransactionStore } from '../../lambda/storage/transaction-store.js';
import { stubAwsEnvironment } from './aws-environment.js';
import { lambdaContext, specKey } from './fixtures.js';
import { MemoryRefusalStore } from './memory-refusal-store.js';

interface ReceiverOptions {
  /** The accepted keys, or a provider of them (e.g. `secretKeys`). @default [specKey] */
  readonly keys?: string[] | KeyProvider;
  readonly hashMode?: HashMode;
  /** @default refusals kept in memory */
  readonly refusals?: RefusalStore;
  readonly timeBudgetMarginMs?: number;
  /** The transaction's declaration: a fixture's, for a field the real one lacks. */
  readonly fields?: TransactionFields;
}

/**
 * A configuration as Lambda's environment would give it, for receivers built in a test. The
 * process's own Powertools switches (the test setup turns metrics off) still apply.
 */
export function testConfig(variables: Record<string, string> = {}): Config {
  return loadConfig({
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED,
    POWERTOOLS_DEV: process.env.POWERTOOLS_DEV,
    TABLE_NAME: 'unused-the-store-is-given',
    CALLBACK_API_KEYS: specKey,
    ...variables,
  });
}

/**
 * The receiver as lambda/receiver.ts builds it (`createReceiver`), around a store of the test's
 * choosing. Returns a function that invokes it like Lambda would (with `context`, when given).
 */
export function receiverWith(store: TransactionStore, options: ReceiverOptions = {}) {
  const { keys = [specKey], hashMode = 'if-present', timeBudgetMarginMs } = options;
  const config = testConfig({
    HASH_MODE: hashMode,
    ...(timeBudgetMarginMs === undefined ? {} : { TIME_BUDGET_MARGIN_MS: `${timeBudgetMarginMs}` }),
  });
  const { handler } = createReceiver(config, {
    store,
    ...(options.fields ? { fields: options.fields } : {}),
    refusals: options.refusals ?? new MemoryRefusalStore(),
    keys: Array.isArray(keys) ? staticKeys(keys) : keys,
  });
  return (event: APIGatewayProxyEvent, context: Context = lambdaContext()) =>
    handler(event, context);
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
  return (event: APIGatewayProxyEvent) => handler(event, lambdaContext());
}
