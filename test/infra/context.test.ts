import { App } from 'aws-cdk-lib';
import { describe, expect, test } from 'vitest';
import { nearestOption, readDeploymentContext } from '../../infra/context.js';
import { optionNames } from '../../infra/deployment-options.js';
import { DeploymentOptionError } from '../../infra/deployment-settings.js';
import { cdkContext } from './synth.js';

/** What `infra/app.ts` reads for `cdk synth -c key=value ...`, with cdk.json's context in. */
const contextOf = (values: Record<string, unknown>) =>
  readDeploymentContext(new App({ context: { ...cdkContext, ...values } }).node);

describe('deployment options from CDK context', () => {
  test('all have defaults: no context gives the documented deployment', () => {
    expect(contextOf({})).toEqual({
      stackName: 'CallbackReceiver',
      hashMode: 'if-present',
      throttleRateLimit: 100,
      throttleBurstLimit: 200,
      reservedConcurrency: 'none',
      waf: true,
      customerManagedKey: false,
      logRetentionDays: 90,
      apiGatewayCloudWatchRole: true,
      authFailureAlarmThreshold: 20,
      refusalsKeptPerMinute: 120,
      searchIndexes: ['byReference', 'byGatewayId'],
      terminationProtection: false,
    });
  });

  test('read command-line strings as numbers, booleans, lists and tags', () => {
    expect(
      contextOf({
        stackName: 'CallbackReceiverStaging',
        hashMode: 'required',
        throttleRateLimit: '25.5',
        throttleBurstLimit: '50',
        reservedConcurrency: 'none',
        allowedSourceIps: '203.0.113.7, 198.51.100.0/24,2001:DB8::/64',
        wafRateLimit: '1000',
        alarmEmail: 'ops@example.com',
        existingSecretName: 'payments/keys',
        existingSecretKeyArn:
          'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
        customerManagedKey: 'true',
        logRetentionDays: '30',
        apiGatewayCloudWatchRole: 'false',
        authFailureAlarmThreshold: '5',
        refusalsKeptPerMinute: '30',
        searchIndexes: ' byReference ',
        terminationProtection: 'TRUE',
        tags: 'environment=production, owner=payments',
      }),
    ).toEqual({
      stackName: 'CallbackReceiverStaging',
      hashMode: 'required',
      throttleRateLimit: 25.5,
      throttleBurstLimit: 50,
      reservedConcurrency: 'none',
      waf: true,
      allowedSourceIps: ['203.0.113.7/32', '198.51.100.0/24', '2001:db8::/64'],
      wafRateLimit: 1000,
      alarmEmail: 'ops@example.com',
      existingSecretName: 'payments/keys',
      existingSecretKeyArn:
        'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab',
      customerManagedKey: true,
      logRetentionDays: 30,
      apiGatewayCloudWatchRole: false,
      authFailureAlarmThreshold: 5,
      refusalsKeptPerMinute: 30,
      searchIndexes: ['byReference'],
      terminationProtection: true,
      tags: { environment: 'production', owner: 'payments' },
    });
  });

  test('read cdk.json JSON values as they are', () => {
    expect(
      contextOf({
        allowedSourceIps: ['2001:DB8::1'],
        customerManagedKey: true,
        throttleRateLimit: 10,
        tags: { environment: 'production' },
      }),
    ).toMatchObject({
      allowedSourceIps: ['2001:db8::1/128'],
      customerManagedKey: true,
      throttleRateLimit: 10,
      tags: { environment: 'production' },
    });
  });

  test('treat an empty value as unset', () => {
    const settings = contextOf({ alarmEmail: '', hashMode: ' ' });
    expect(settings.alarmEmail).toBeUndefined();
    expect(settings.hashMode).toBe('if-present');
  });

  test.each([
    ['stackName', 'callback receiver'],
    ['hashMode', 'sometimes'],
    ['throttleRateLimit', '-1'],
    ['throttleBurstLimit', '1.5'],
    ['reservedConcurrency', '0'],
    ['waf', 'yes'],
    ['allowedSourceIps', '203.0.113.300'],
    ['allowedSourceIps', '203.0.113.0/33'],
    ['allowedSourceIps', '::::/64'],
    ['allowedSourceIps', '0.0.0.0/0'],
    ['allowedSourceIps', ' , '],
    ['wafRateLimit', '5'],
    ['alarmEmail', 'not-an-address'],
    ['existingSecretKeyArn', 'alias/payments'],
    ['customerManagedKey', 'yes'],
    ['logRetentionDays', '45'],
    ['apiGatewayCloudWatchRole', '0'],
    ['authFailureAlarmThreshold', '0'],
    ['refusalsKeptPerMinute', '0'],
    ['searchIndexes', 'byUsername'],
    ['terminationProtection', 'on'],
    ['tags', 'environment'],
  ])('refuse a bad %s (%s), naming the option', (key, value) => {
    const read = () => contextOf({ [key]: value, existingSecretName: 'payments/keys' });
    expect(read).toThrow(DeploymentOptionError);
    expect(read).toThrow(`"${key}"`);
  });

  test.each([
    ['hashmode', 'hashMode'],
    ['allowedSourceIP', 'allowedSourceIps'],
    ['alarmMail', 'alarmEmail'],
    ['stackname', 'stackName'],
  ])('refuse the unknown key %s, naming the nearest option %s', (typo, meant) => {
    expect(() => contextOf({ [typo]: 'x' })).toThrow(
      `Unknown context key "${typo}" (did you mean "${meant}"?)`,
    );
    expect(nearestOption(typo)).toBe(meant);
  });

  test("leave the CDK's own context keys alone", () => {
    expect(() =>
      contextOf({
        '@aws-cdk/core:newStyleStackSynthesis': true,
        'aws:cdk:enable-path-metadata': true,
        'acknowledged-issue-numbers': [12345],
        'availability-zones:account=123456789012:region=eu-west-1': ['eu-west-1a'],
      }),
    ).not.toThrow();
  });

  test.each([
    [{ waf: 'false', allowedSourceIps: '203.0.113.7' }, 'allowedSourceIps'],
    [{ waf: 'false', wafRateLimit: '1000' }, 'wafRateLimit'],
    [
      { existingSecretKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/abc' },
      'existingSecretKeyArn',
    ],
  ])('refuse an option its companion would silently ignore: %j', (values, key) => {
    expect(() => contextOf(values)).toThrow(`"${key}"`);
  });

  test('every option is a plain camelCase word, so it is judged as one of ours', () => {
    for (const name of optionNames) expect(name).toMatch(/^[a-z][A-Za-z]*$/);
  });
});
