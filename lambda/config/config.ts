// zod/mini, as in transaction-schema.ts: read at every cold start, so its load time counts.
import * as z from 'zod/mini';
import { defaultRefusalRetentionDays, refusalsTableName } from '../refusals/refusals-table.js';

/**
 * The configuration of both functions, each read once from the environment at cold start by
 * {@link loadConfig}. A missing or malformed variable stops the function before it answers
 * anything, with a message that names the variable (never its value: some of them are secrets).
 */
export const hashModes = ['required', 'if-present', 'off'] as const;
export type HashMode = (typeof hashModes)[number];

/**
 * The limits' defaults, said once: the fallbacks of the variables below, and what the functions'
 * modules use when their caller (a tool, a test) configures nothing.
 */
export const limitDefaults = {
  timeBudgetMarginMs: 500,
  dynamodb: { timeoutMs: 2000, maxAttempts: 3 },
  secretsManager: { timeoutMs: 1000, maxAttempts: 2 },
  eventBridge: { timeoutMs: 3000, maxAttempts: 3 },
} as const;

const positiveInt = (fallback: number) =>
  z.pipe(
    z.optional(z.string().check(z.regex(/^[1-9]\d*$/, 'must be a positive integer'))),
    z.transform((value: string | undefined) => (value === undefined ? fallback : Number(value))),
  );

/**
 * What both functions keep back from Lambda's remaining time: the answer (or the batch's
 * failures), the log line and the metrics are written inside it. Every dependency call is
 * cut off before it.
 */
const timeBudgetMarginMs = positiveInt(limitDefaults.timeBudgetMarginMs);

const environmentSchema = z
  .object({
    TABLE_NAME: z.string().check(z.minLength(1, 'must name the DynamoDB table')),
    /** Where refused deliveries are kept; default `<TABLE_NAME>-refusals`, as local mode names it. */
    REFUSALS_TABLE_NAME: z.optional(z.string().check(z.minLength(1, 'must name a table'))),
    /** Days a kept refusal lives after its last delivery, before DynamoDB's TTL deletes it. */
    REFUSAL_RETENTION_DAYS: positiveInt(defaultRefusalRetentionDays),
    CALLBACK_API_KEYS: z.optional(z.string()),
    CALLBACK_API_KEY_SECRET_ID: z.optional(z.string().check(z.minLength(1))),
    HASH_MODE: z._default(z.enum(hashModes), 'if-present'),
    TIME_BUDGET_MARGIN_MS: timeBudgetMarginMs,
    /** Per-attempt DynamoDB timeout and attempts; the time budget may allow fewer. */
    DYNAMODB_TIMEOUT_MS: positiveInt(limitDefaults.dynamodb.timeoutMs),
    DYNAMODB_MAX_ATTEMPTS: positiveInt(limitDefaults.dynamodb.maxAttempts),
    /** Per-attempt Secrets Manager timeout and attempts of one key fetch. */
    SECRETS_MANAGER_TIMEOUT_MS: positiveInt(limitDefaults.secretsManager.timeoutMs),
    SECRETS_MANAGER_MAX_ATTEMPTS: positiveInt(limitDefaults.secretsManager.maxAttempts),
  })
  .check(
    z.refine(
      (env) => (env.CALLBACK_API_KEYS ?? '').trim() !== '' || env.CALLBACK_API_KEY_SECRET_ID,
      {
        message: 'set CALLBACK_API_KEYS (comma-separated) or CALLBACK_API_KEY_SECRET_ID',
        path: ['CALLBACK_API_KEYS'],
      },
    ),
  );

/** The receiver's configuration (`lambda/receiver.ts`). */
export const configSchema = z.pipe(
  environmentSchema,
  z.transform((env: z.output<typeof environmentSchema>) => ({
    tableName: env.TABLE_NAME,
    refusals: {
      tableName: env.REFUSALS_TABLE_NAME ?? refusalsTableName(env.TABLE_NAME),
      retentionDays: env.REFUSAL_RETENTION_DAYS,
    },
    apiKeys: env.CALLBACK_API_KEYS?.trim()
      ? ({ source: 'environment', keys: splitKeys(env.CALLBACK_API_KEYS) } as const)
      : ({ source: 'secret', secretId: env.CALLBACK_API_KEY_SECRET_ID as string } as const),
    hashMode: env.HASH_MODE,
    timeBudgetMarginMs: env.TIME_BUDGET_MARGIN_MS,
    dynamodb: { timeoutMs: env.DYNAMODB_TIMEOUT_MS, maxAttempts: env.DYNAMODB_MAX_ATTEMPTS },
    secretsManager: {
      timeoutMs: env.SECRETS_MANAGER_TIMEOUT_MS,
      maxAttempts: env.SECRETS_MANAGER_MAX_ATTEMPTS,
    },
  })),
);

export type Config = z.output<typeof configSchema>;
export type ApiKeySource = Config['apiKeys'];

/** Keys are separated by commas; surrounding whitespace and empty entries are dropped. */
export function splitKeys(list: string): string[] {
  return list
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

/** The stream consumer's configuration (`lambda/stream-consumer.ts`). */
const streamConsumerEnvironmentSchema = z.object({
  EVENT_BUS_NAME: z.string().check(z.minLength(1, 'must name the EventBridge bus (name or ARN)')),
  TIME_BUDGET_MARGIN_MS: timeBudgetMarginMs,
  /** Per-attempt PutEvents timeout and attempts; the time budget may allow fewer. */
  EVENTBRIDGE_TIMEOUT_MS: positiveInt(limitDefaults.eventBridge.timeoutMs),
  EVENTBRIDGE_MAX_ATTEMPTS: positiveInt(limitDefaults.eventBridge.maxAttempts),
});

export const streamConsumerConfigSchema = z.pipe(
  streamConsumerEnvironmentSchema,
  z.transform((env: z.output<typeof streamConsumerEnvironmentSchema>) => ({
    eventBusName: env.EVENT_BUS_NAME,
    timeBudgetMarginMs: env.TIME_BUDGET_MARGIN_MS,
    eventBridge: {
      timeoutMs: env.EVENTBRIDGE_TIMEOUT_MS,
      maxAttempts: env.EVENTBRIDGE_MAX_ATTEMPTS,
    },
  })),
);

export type StreamConsumerConfig = z.output<typeof streamConsumerConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * Parses the environment with `schema` (the receiver's unless told) or throws a
 * {@link ConfigError} naming every bad variable.
 */
export function loadConfig(env?: NodeJS.ProcessEnv): Config;
export function loadConfig<Schema extends z.ZodMiniType>(
  env: NodeJS.ProcessEnv,
  schema: Schema,
): z.output<Schema>;
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  schema: z.ZodMiniType = configSchema,
): unknown {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result.data;
}
