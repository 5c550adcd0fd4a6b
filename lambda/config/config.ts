import {
  defaultMetricsNamespace,
  serviceName,
  telemetryEnvironment,
} from '../observability/metric-names.js';
import { defaultRefusalsKeptPerMinute } from '../refusals/refusal-limits.js';
import { defaultRefusalRetentionDays, refusalsTableName } from '../refusals/refusals-table.js';
import { type EnvironmentReader, readEnvironment } from './environment-reader.js';

export { ConfigError } from './environment-reader.js';

/**
 * The configuration of both functions, each read once from the environment at cold start by
 * {@link loadConfig} and {@link loadStreamConsumerConfig}. A missing or malformed variable stops
 * the function before it answers anything, with a message that names the variable (never its
 * value: some of them are secrets).
 *
 * Checked by a few plain functions rather than a zod schema: the check runs once per cold start,
 * and building a schema for it cost about 3 ms of every cold start (see docs/performance.md).
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

/** Where the API keys come from: the environment itself, or a Secrets Manager secret. */
export type ApiKeySource =
  | { readonly source: 'environment'; readonly keys: readonly string[] }
  | { readonly source: 'secret'; readonly secretId: string };

/** Per-attempt timeout and attempts of one dependency; the time budget may allow fewer. */
export interface AttemptLimits {
  readonly timeoutMs: number;
  readonly maxAttempts: number;
}

/** Powertools `service` and the metrics namespace; a deployed stack sets its own. */
export interface TelemetryConfig {
  readonly serviceName: string;
  readonly metricsNamespace: string;
  /**
   * Whether EMF metrics are written, with Powertools' own switches: `POWERTOOLS_METRICS_DISABLED`
   * (`true` or `false`) wins, else `POWERTOOLS_DEV=true` turns them off.
   */
  readonly metrics: boolean;
}

/** The receiver's configuration (`lambda/receiver.ts`). */
export interface Config {
  readonly tableName: string;
  /** Where refused deliveries are kept, and for how many days after their last delivery. */
  readonly refusals: {
    readonly tableName: string;
    readonly retentionDays: number;
    /** New refused bodies kept per minute across all instances; past it counted, not kept. */
    readonly keptPerMinute: number;
  };
  readonly apiKeys: ApiKeySource;
  readonly hashMode: HashMode;
  /**
   * What the function keeps back from Lambda's remaining time: the answer, the log line and the
   * metrics are written inside it. Every dependency call is cut off before it.
   */
  readonly timeBudgetMarginMs: number;
  readonly dynamodb: AttemptLimits;
  readonly secretsManager: AttemptLimits;
  readonly telemetry: TelemetryConfig;
}

/** The stream consumer's configuration (`lambda/stream-consumer.ts`). */
export interface StreamConsumerConfig {
  /** The EventBridge bus, by name or ARN. */
  readonly eventBusName: string;
  readonly timeBudgetMarginMs: number;
  readonly eventBridge: AttemptLimits;
  readonly telemetry: TelemetryConfig;
}

/** Keys are separated by commas; surrounding whitespace and empty entries are dropped. */
export function splitKeys(list: string): string[] {
  return list
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

/** The receiver's configuration, or a {@link ConfigError} naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return readEnvironment(env, (read) => {
    const tableName = read.text('TABLE_NAME', 'must name the DynamoDB table');
    const keyList = env.CALLBACK_API_KEYS?.trim() ?? '';
    const secretId = read.optionalText('CALLBACK_API_KEY_SECRET_ID', 'must not be empty');
    if (keyList === '' && secretId === undefined) {
      read.problem(
        'CALLBACK_API_KEYS',
        'set CALLBACK_API_KEYS (comma-separated) or CALLBACK_API_KEY_SECRET_ID',
      );
    }
    return {
      tableName,
      refusals: {
        tableName:
          read.optionalText('REFUSALS_TABLE_NAME', 'must name a table') ??
          refusalsTableName(tableName),
        retentionDays: read.positiveInt('REFUSAL_RETENTION_DAYS', defaultRefusalRetentionDays),
        keptPerMinute: read.positiveInt('REFUSALS_KEPT_PER_MINUTE', defaultRefusalsKeptPerMinute),
      },
      apiKeys:
        keyList === ''
          ? { source: 'secret', secretId: secretId as string }
          : { source: 'environment', keys: splitKeys(keyList) },
      hashMode: read.oneOf('HASH_MODE', hashModes, 'if-present'),
      timeBudgetMarginMs: timeBudgetMargin(read),
      dynamodb: attemptLimits(read, 'DYNAMODB', limitDefaults.dynamodb),
      secretsManager: attemptLimits(read, 'SECRETS_MANAGER', limitDefaults.secretsManager),
      telemetry: telemetry(env),
    };
  });
}

/** The stream consumer's configuration, or a {@link ConfigError} naming every bad variable. */
export function loadStreamConsumerConfig(
  env: NodeJS.ProcessEnv = process.env,
): StreamConsumerConfig {
  return readEnvironment(env, (read) => ({
    eventBusName: read.text('EVENT_BUS_NAME', 'must name the EventBridge bus (name or ARN)'),
    timeBudgetMarginMs: timeBudgetMargin(read),
    eventBridge: attemptLimits(read, 'EVENTBRIDGE', limitDefaults.eventBridge),
    telemetry: telemetry(env),
  }));
}

function timeBudgetMargin(read: EnvironmentReader): number {
  return read.positiveInt('TIME_BUDGET_MARGIN_MS', limitDefaults.timeBudgetMarginMs);
}

function attemptLimits(read: EnvironmentReader, prefix: string, defaults: AttemptLimits) {
  return {
    timeoutMs: read.positiveInt(`${prefix}_TIMEOUT_MS`, defaults.timeoutMs),
    maxAttempts: read.positiveInt(`${prefix}_MAX_ATTEMPTS`, defaults.maxAttempts),
  };
}

/** Unset or empty names fall back to the product's own, as local mode and the tests use. */
function telemetry(env: NodeJS.ProcessEnv): TelemetryConfig {
  return {
    serviceName: env[telemetryEnvironment.serviceName] || serviceName,
    metricsNamespace: env[telemetryEnvironment.metricsNamespace] || defaultMetricsNamespace,
    metrics: metricsEnabled(env),
  };
}

function metricsEnabled(env: NodeJS.ProcessEnv): boolean {
  const flag = (value: string | undefined) => {
    const normalized = value?.trim().toLowerCase();
    if (normalized === 'true' || normalized === '1') return true;
    if (normalized === 'false' || normalized === '0') return false;
    return undefined;
  };
  const disabled = flag(env.POWERTOOLS_METRICS_DISABLED);
  return disabled === undefined ? flag(env.POWERTOOLS_DEV) !== true : !disabled;
}
