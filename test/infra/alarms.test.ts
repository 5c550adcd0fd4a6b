import { Capture, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, test } from 'vitest';
import { outcomes } from '../../lambda/observability/metric-names.js';
import { synthesize } from './synth.js';

const synth = synthesize();
const { template, stack } = synth;
const topicArn = stack.resolve(stack.alarmTopic.topicArn);
const outcomeMetric = (name: string) =>
  Match.objectLike({
    MetricStat: Match.objectLike({
      Metric: {
        Namespace: 'CallbackReceiver',
        MetricName: name,
        Dimensions: [{ Name: 'service', Value: 'callback-receiver' }],
      },
      Stat: 'Sum',
    }),
  });

/** The dashboard body with deploy-time values replaced, parsed. */
function dashboardWidgets(): { properties: { title: string; metrics: unknown[][] } }[] {
  const body = new Capture();
  template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardBody: body });
  const parts = (body.asObject() as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
  const json = parts.map((part) => (typeof part === 'string' ? part : 'TOKEN')).join('');
  return JSON.parse(json).widgets;
}

describe('alarms', () => {
  test('notify an SNS topic that refuses unencrypted publishing', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      }),
    });
  });

  test('every alarm notifies the topic on alarm and on recovery', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    // The receiver's six, and the transaction events' dead-letter and stream-lag alarms.
    expect(alarms).toHaveLength(8);
    for (const alarm of alarms) {
      expect(alarm.Properties).toMatchObject({ AlarmActions: [topicArn], OKActions: [topicArn] });
    }
  });

  test('has no e-mail subscription unless alarmEmail is given', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  test('fire on a 5xx rate above 5% at the stage', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      Statistic: 'Average',
      Threshold: 0.05,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  test('fire on any Lambda error', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: stack.resolve(stack.function.functionName) }],
      Threshold: 1,
    });
  });

  test('fire on any Lambda throttle', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Throttles',
      Threshold: 1,
    });
  });

  test('fire on any 409 conflict', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'CallbackReceiver',
      MetricName: 'Conflict',
      Dimensions: [{ Name: 'service', Value: 'callback-receiver' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  test('fire on a spike of 401 + 403 answers', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 20,
      Metrics: Match.arrayWith([
        Match.objectLike({ Expression: 'unauthorized + hashRejected' }),
        outcomeMetric('Unauthorized'),
        outcomeMetric('HashRejected'),
      ]),
    });
  });

  test('fire on DynamoDB throttling of PutItem or GetItem', () => {
    for (const operation of ['PutItem', 'GetItem']) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Metrics: Match.arrayWith([
          Match.objectLike({
            MetricStat: Match.objectLike({
              Metric: Match.objectLike({
                Namespace: 'AWS/DynamoDB',
                MetricName: 'ThrottledRequests',
                Dimensions: Match.arrayWith([{ Name: 'Operation', Value: operation }]),
              }),
            }),
          }),
        ]),
      });
    }
  });

  test('treat no traffic as OK', () => {
    for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm'))) {
      expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
    }
  });
});

describe('dashboard', () => {
  const widgets = dashboardWidgets();
  const titled = (title: string) => widgets.find((widget) => widget.properties.title === title);

  test('graphs callbacks per outcome, one line per outcome metric', () => {
    const graph = titled('Callbacks per outcome');
    const names = graph?.properties.metrics.map((metric) => metric[1]);
    expect(names).toEqual([...outcomes]);
    expect(outcomes).toEqual([
      'Recorded',
      'Duplicate',
      'Conflict',
      'Unauthorized',
      'HashRejected',
      'Invalid',
      'StoreUnavailable',
      'ItemRejected',
      'KeysUnavailable',
    ]);
  });

  test('graphs latency p50 and p99 from API Gateway and Lambda', () => {
    const stats = (title: string) =>
      JSON.stringify(titled(title)?.properties.metrics ?? []).match(/"stat":"p\d+"/g);
    expect(stats('Latency p50 / p99 (ms)')).toEqual(
      expect.arrayContaining(['"stat":"p50"', '"stat":"p99"']),
    );
    expect(stats('Function duration p50 / p99 (ms)')).toEqual(['"stat":"p50"', '"stat":"p99"']);
  });

  test('graphs errors of the API, the function and DynamoDB', () => {
    const errors = widgets.filter((widget) => widget.properties.title.startsWith('Errors'));
    const text = JSON.stringify(errors);
    for (const metric of ['5XXError', '4XXError', 'Errors', 'Throttles', 'ThrottledRequests']) {
      expect(text).toContain(`"${metric}"`);
    }
  });
});
