import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  loadConfig,
  loadStreamConsumerConfig,
} from '../../../lambda/config/config.js';

/** The least the function runs with: a table and one key. */
const minimal = { TABLE_NAME: 't', CALLBACK_API_KEYS: 'k' };
const configWith = (variables: Record<string, string>) => loadConfig({ ...minimal, ...variables });

describe('configuration', () => {
  it('reads keys from CALLBACK_API_KEYS, trimming and dropping empty entries', () => {
    const config = configWith({ CALLBACK_API_KEYS: ' k1 , ,k2 ' });
    expect(config.apiKeys).toEqual({ source: 'environment', keys: ['k1', 'k2'] });
  });

  it('falls back to the Secrets Manager secret when no keys are listed', () => {
    const config = loadConfig({ TABLE_NAME: 't', CALLBACK_API_KEY_SECRET_ID: 'callback/keys' });
    expect(config.apiKeys).toEqual({ source: 'secret', secretId: 'callback/keys' });
  });

  it('defaults the hash mode to if-present and bounds DynamoDB retries', () => {
    const config = loadConfig(minimal);
    expect(config).toMatchObject({
      hashMode: 'if-present',
      dynamodb: { timeoutMs: 2000, maxAttempts: 3 },
    });
  });

  it('keeps refusals 90 days beside the table, 120 new ones a minute, unless told otherwise', () => {
    expect(loadConfig(minimal).refusals).toEqual({
      tableName: 't-refusals',
      retentionDays: 90,
      keptPerMinute: 120,
    });
    const configured = configWith({
      REFUSALS_TABLE_NAME: 'kept',
      REFUSAL_RETENTION_DAYS: '30',
      REFUSALS_KEPT_PER_MINUTE: '10',
    });
    expect(configured.refusals).toEqual({
      tableName: 'kept',
      retentionDays: 30,
      keptPerMinute: 10,
    });
    expect(() => configWith({ REFUSAL_RETENTION_DAYS: '0' })).toThrow(/REFUSAL_RETENTION_DAYS/);
    expect(() => configWith({ REFUSALS_KEPT_PER_MINUTE: '0' })).toThrow(/REFUSALS_KEPT_PER_MINUTE/);
  });

  it('fails fast naming each bad variable, never echoing a value', () => {
    const attempt = () =>
      loadConfig({ HASH_MODE: 'sometimes', CALLBACK_API_KEYS: '   ', DYNAMODB_TIMEOUT_MS: 'soon' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/TABLE_NAME/);
    expect(attempt).toThrow(/HASH_MODE/);
    expect(attempt).toThrow(/DYNAMODB_TIMEOUT_MS/);
    expect(attempt).not.toThrow(/sometimes|soon/);
  });

  it('requires one source of keys', () => {
    expect(() => loadConfig({ TABLE_NAME: 't' })).toThrow(
      /CALLBACK_API_KEYS.*CALLBACK_API_KEY_SECRET_ID/,
    );
  });

  it('names an unknown hash mode with the modes it accepts, and an empty secret id', () => {
    expect(() => configWith({ HASH_MODE: 'sometimes' })).toThrow(
      'Invalid configuration: HASH_MODE: must be one of required, if-present, off',
    );
    expect(() => loadConfig({ TABLE_NAME: 't', CALLBACK_API_KEY_SECRET_ID: '' })).toThrow(
      /CALLBACK_API_KEY_SECRET_ID: must not be empty/,
    );
  });

  it('takes the service and namespace the stack sets, and Powertools switches for metrics', () => {
    expect(loadConfig(minimal).telemetry).toEqual({
      serviceName: 'callback-receiver',
      metricsNamespace: 'CallbackReceiver',
      metrics: true,
    });
    const deployed = configWith({
      POWERTOOLS_SERVICE_NAME: 'svc',
      POWERTOOLS_METRICS_NAMESPACE: 'Staging',
    });
    expect(deployed.telemetry).toMatchObject({ serviceName: 'svc', metricsNamespace: 'Staging' });
    const metrics = (env: Record<string, string>) => configWith(env).telemetry.metrics;
    expect(metrics({ POWERTOOLS_METRICS_DISABLED: 'true' })).toBe(false);
    expect(metrics({ POWERTOOLS_DEV: 'true' })).toBe(false);
    expect(metrics({ POWERTOOLS_DEV: 'true', POWERTOOLS_METRICS_DISABLED: 'false' })).toBe(true);
    expect(metrics({ POWERTOOLS_METRICS_DISABLED: 'maybe' })).toBe(true);
  });
});

describe('stream consumer configuration', () => {
  it('reads the bus and the EventBridge limits, with defaults', () => {
    expect(loadStreamConsumerConfig({ EVENT_BUS_NAME: 'bus' })).toMatchObject({
      eventBusName: 'bus',
      timeBudgetMarginMs: 500,
      eventBridge: { timeoutMs: 3000, maxAttempts: 3 },
    });
    expect(
      loadStreamConsumerConfig({ EVENT_BUS_NAME: 'bus', EVENTBRIDGE_MAX_ATTEMPTS: '5' })
        .eventBridge,
    ).toEqual({ timeoutMs: 3000, maxAttempts: 5 });
  });

  it('fails naming the missing bus and a malformed limit', () => {
    const attempt = () => loadStreamConsumerConfig({ EVENTBRIDGE_TIMEOUT_MS: '-1' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/EVENT_BUS_NAME: must name the EventBridge bus/);
    expect(attempt).toThrow(/EVENTBRIDGE_TIMEOUT_MS: must be a positive integer/);
  });
});
