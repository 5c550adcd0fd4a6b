import { describe, expect, test } from 'vitest';
import { retentionDays } from '../../infra/callback-receiver-stack.js';
import { ContextError, contextKeys, readDeploymentContext } from '../../infra/context.js';

const contextOf = (values: Record<string, unknown>) =>
  readDeploymentContext({ tryGetContext: (key: string) => values[key] });

describe('context parameters', () => {
  test('are all optional: no context gives no settings, so the stack defaults apply', () => {
    expect(Object.values(contextOf({})).filter((value) => value !== undefined)).toEqual([]);
  });

  test('read command-line strings as numbers, booleans and lists', () => {
    expect(
      contextOf({
        hashMode: 'required',
        throttleRateLimit: '25.5',
        throttleBurstLimit: '50',
        allowedSourceIps: '203.0.113.7, 198.51.100.0/24',
        wafRateLimit: '1000',
        alarmEmail: 'ops@example.com',
        existingSecretName: 'payments/keys',
        customerManagedKey: 'true',
        logRetentionDays: '30',
        apiGatewayCloudWatchRole: 'false',
        authFailureAlarmThreshold: '5',
      }),
    ).toEqual({
      hashMode: 'required',
      throttleRateLimit: 25.5,
      throttleBurstLimit: 50,
      allowedSourceIps: ['203.0.113.7/32', '198.51.100.0/24'],
      wafRateLimit: 1000,
      alarmEmail: 'ops@example.com',
      existingSecretName: 'payments/keys',
      customerManagedKey: true,
      logRetentionDays: 30,
      apiGatewayCloudWatchRole: false,
      authFailureAlarmThreshold: 5,
    });
  });

  test('read cdk.json JSON values as they are', () => {
    expect(
      contextOf({
        allowedSourceIps: ['2001:DB8::1'],
        customerManagedKey: true,
        throttleRateLimit: 10,
      }),
    ).toMatchObject({
      allowedSourceIps: ['2001:db8::1/128'],
      customerManagedKey: true,
      throttleRateLimit: 10,
    });
  });

  test('treat an empty value as unset', () => {
    expect(contextOf({ alarmEmail: '', allowedSourceIps: ' , ' })).toMatchObject({
      alarmEmail: undefined,
      allowedSourceIps: undefined,
    });
  });

  test.each([
    [contextKeys.hashMode, 'sometimes'],
    [contextKeys.throttleRateLimit, '-1'],
    [contextKeys.throttleBurstLimit, '1.5'],
    [contextKeys.allowedSourceIps, '203.0.113.300'],
    [contextKeys.allowedSourceIps, '203.0.113.0/33'],
    [contextKeys.alarmEmail, 'not-an-address'],
    [contextKeys.customerManagedKey, 'yes'],
  ])('refuse a bad %s (%s), naming the parameter', (key, value) => {
    expect(() => contextOf({ [key]: value })).toThrow(ContextError);
    expect(() => contextOf({ [key]: value })).toThrow(key);
  });

  test('refuse a log retention CloudWatch does not offer', () => {
    expect(retentionDays(90)).toBe(90);
    expect(() => retentionDays(45)).toThrow(/logRetentionDays/);
  });
});
