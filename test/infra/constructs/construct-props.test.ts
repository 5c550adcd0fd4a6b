import { App, Duration, Stack } from 'aws-cdk-lib';
import { Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, test } from 'vitest';
import { alarmToTopic } from '../../../infra/constructs/alarm-to-topic.js';
import { CallbackApi } from '../../../infra/constructs/callback-api.js';
import { ServiceFunction } from '../../../infra/constructs/service-function.js';
import { TransactionEvents } from '../../../infra/constructs/transaction-events.js';
import { importedHandler, importedTopic } from '../synth.js';

// Each construct refuses a bad prop before it builds anything (so before any bundling), with a
// message that names the construct and the prop.
const newStack = () => new Stack(new App(), 'Props');

describe('constructs validate their own props', () => {
  test('ServiceFunction refuses a memory size Lambda does not offer, and a zero reservation', () => {
    const base = {
      entry: 'lambda/receiver.ts',
      description: 'd',
      roleDescription: 'r',
      timeout: Duration.seconds(10),
      logRetention: RetentionDays.ONE_WEEK,
      environment: {},
    };
    expect(() => new ServiceFunction(newStack(), 'Fn', { ...base, memorySize: 64 })).toThrow(
      /Props\/Fn: memorySize must be an integer from 128 to 10240 MB/,
    );
    expect(
      () =>
        new ServiceFunction(newStack(), 'Fn', {
          ...base,
          memorySize: 256,
          reservedConcurrentExecutions: 0,
        }),
    ).toThrow(/reservedConcurrentExecutions must be a positive integer/);
  });

  test('CallbackApi refuses an allow-list without the WAF it would need', () => {
    const stack = newStack();
    const handler = importedHandler(stack);
    expect(
      () =>
        new CallbackApi(stack, 'Api', {
          handler,
          throttleRateLimit: 100,
          throttleBurstLimit: 200,
          waf: false,
          allowedSourceIps: ['203.0.113.7/32'],
          logRetention: RetentionDays.ONE_WEEK,
        }),
    ).toThrow(/Props\/Api: allowedSourceIps and wafRateLimit need the WAF/);
  });

  test('CallbackApi refuses a rate that is not positive and a burst that is not whole', () => {
    const stack = newStack();
    const handler = importedHandler(stack);
    const api = (id: string, throttleRateLimit: number, throttleBurstLimit: number) => () =>
      new CallbackApi(stack, id, {
        handler,
        throttleRateLimit,
        throttleBurstLimit,
        logRetention: RetentionDays.ONE_WEEK,
      });
    const refusal = /Props\/Api\d: throttle limits must be positive, the burst an integer/;
    expect(api('Api1', 0, 200)).toThrow(refusal);
    expect(api('Api2', 100, 1.5)).toThrow(refusal);
  });

  test('TransactionEvents refuses a table without a stream', () => {
    const stack = newStack();
    expect(
      () =>
        new TransactionEvents(stack, 'Events', {
          table: Table.fromTableName(stack, 'Table', 'transactions'),
          alarmTopic: importedTopic(stack),
          logRetention: RetentionDays.ONE_WEEK,
        }),
    ).toThrow('TransactionEvents needs a table with a stream (NEW_IMAGE)');
  });

  test('TransactionEvents refuses a record age beyond the stream’s 24 hours', () => {
    const stack = newStack();
    expect(
      () =>
        new TransactionEvents(stack, 'Events', {
          table: Table.fromTableAttributes(stack, 'Table', {
            tableName: 'transactions',
            tableStreamArn:
              'arn:aws:dynamodb:eu-west-1:111122223333:table/transactions/stream/2026-01-01T00:00:00.000',
          }),
          alarmTopic: importedTopic(stack),
          logRetention: RetentionDays.ONE_WEEK,
          maxRecordAge: Duration.hours(25),
        }),
    ).toThrow(/Props\/Events: maxRecordAge must be from 1 minute to 24 hours/);
  });

  test('alarmToTopic refuses more alarming points than evaluated periods', () => {
    const stack = newStack();
    expect(() =>
      alarmToTopic(stack, 'Alarm', {
        topic: importedTopic(stack),
        metric: new Metric({ namespace: 'N', metricName: 'M' }),
        threshold: 1,
        description: 'd',
        treatMissingData: TreatMissingData.NOT_BREACHING,
        evaluationPeriods: 2,
        datapointsToAlarm: 3,
      }),
    ).toThrow(/Alarm: datapointsToAlarm must be from 1 to evaluationPeriods/);
  });
});
