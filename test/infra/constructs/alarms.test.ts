import { Capture, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, test } from 'vitest';
import { outcomes } from '../../../lambda/observability/metric-names.js';
import { deniesPlainTransport, synthesize } from '../synth.js';

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

/** The synthesized alarm named `CallbackReceiver-<id>`. */
function alarm(id: string): Record<string, unknown> {
  const found = Object.values(
    template.findResources('AWS::CloudWatch::Alarm', {
      Properties: { AlarmName: `CallbackReceiver-${id}` },
    }),
  );
  expect(found, id).toHaveLength(1);
  return (found[0] as { Properties: Record<string, unknown> }).Properties;
}
const expressionOf = (properties: Record<string, unknown>) =>
  (properties.Metrics as { Expression?: string; ReturnData?: boolean }[]).find(
    (metric) => metric.Expression !== undefined && metric.ReturnData !== false,
  )?.Expression;

/**
 * The alarm `id` on a metric math expression, once its expression and its properties are as
 * expected (a gap in the data is no alarm unless `expected` says otherwise).
 */
function expressionAlarm(id: string, expression: string, expected: Record<string, unknown>) {
  const properties = alarm(id);
  expect(expressionOf(properties)).toBe(expression);
  expect(properties).toMatchObject({ TreatMissingData: 'notBreaching', ...expected });
  return properties;
}

describe('alarms', () => {
  test('notify an SNS topic that refuses unencrypted publishing', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: deniesPlainTransport,
    });
  });

  test('every alarm is named after the stack and notifies the topic on alarm and on recovery', () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.map((found) => found.Properties.AlarmName).sort()).toEqual(
      [
        'AuthFailureSpike',
        'Conflict',
        'DeadLetters',
        'DynamoDbThrottles',
        'EdgeRejections',
        'FunctionErrors',
        'FunctionThrottles',
        'ItemRejected',
        'KeysUnavailable',
        'RefusalsNotKept',
        'ServerErrorRate',
        'StreamLag',
      ].map((id) => `CallbackReceiver-${id}`),
    );
    for (const found of alarms) {
      expect(found.Properties).toMatchObject({ AlarmActions: [topicArn], OKActions: [topicArn] });
    }
  });

  test('has no e-mail subscription unless alarmEmail is given', () => {
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  test('ServerErrorRate: a sustained 5xx share above 5% pages, one 503 among ten requests does not', () => {
    // Judged per minute only from 20 requests on (the volume floor), 3 bad minutes of 5.
    const properties = expressionAlarm(
      'ServerErrorRate',
      'IF(requests >= 20, errors / requests, 0)',
      {
        Threshold: 0.05,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 5,
        DatapointsToAlarm: 3,
      },
    );
    const metrics = JSON.stringify(properties.Metrics);
    expect(metrics).toContain('"MetricName":"5XXError"');
    expect(metrics).toContain('"MetricName":"Count"');
  });

  // One metric each, paging from a value of 1 and not for a gap, unless the row says otherwise.
  test.each([
    [
      'FunctionErrors',
      'a crash or timeout of the receiver pages at once',
      {
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Dimensions: [{ Name: 'FunctionName', Value: stack.resolve(stack.function.functionName) }],
      },
    ],
    [
      'FunctionThrottles',
      'the reserved concurrency running out pages',
      { Namespace: 'AWS/Lambda', MetricName: 'Throttles' },
    ],
    [
      'DeadLetters',
      'a batch in the dead-letter queue pages, and stays raised while SQS is silent',
      {
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Statistic: 'Maximum',
        // SQS stops publishing for an idle queue: a gap keeps the last state.
        TreatMissingData: 'ignore',
      },
    ],
    [
      'StreamLag',
      'events ten minutes behind the table page',
      {
        Namespace: 'AWS/Lambda',
        MetricName: 'IteratorAge',
        Statistic: 'Maximum',
        Threshold: 600_000,
      },
    ],
  ])('%s: %s', (id, _what, expected) => {
    expect(alarm(id)).toMatchObject({
      Threshold: 1,
      TreatMissingData: 'notBreaching',
      ...expected,
    });
  });

  test.each([
    ['Conflict', 'a reference reused with different content (409)'],
    ['ItemRejected', 'DynamoDB refusing the item itself (500)'],
    ['KeysUnavailable', 'the API keys unreadable (503)'],
  ])('%s: one callback answered for %s pages; no such answer is no alarm', (id) => {
    expect(alarm(id)).toMatchObject({
      Namespace: 'CallbackReceiver',
      MetricName: id,
      Dimensions: [{ Name: 'service', Value: 'callback-receiver' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      // EMF metrics exist only for minutes with such an answer.
      TreatMissingData: 'notBreaching',
    });
  });

  test('AuthFailureSpike: 20 refusals in 5 minutes page even when all are 401 and none 403', () => {
    // Without FILL, a window with 401 points and no 403 point adds up to no value at all.
    expressionAlarm('AuthFailureSpike', 'FILL(unauthorized, 0) + FILL(hashRejected, 0)', {
      Threshold: 20,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'CallbackReceiver-AuthFailureSpike',
      Metrics: Match.arrayWith([outcomeMetric('Unauthorized'), outcomeMetric('HashRejected')]),
    });
  });

  test('EdgeRejections: requests refused before the function (WAF blocks, 4xx at the stage) page from 50 in 5 minutes', () => {
    const properties = expressionAlarm(
      'EdgeRejections',
      'FILL(stage4xx, 0) + FILL(wafBlocked, 0)',
      { Threshold: 50 },
    );
    const metrics = JSON.stringify(properties.Metrics);
    expect(metrics).toContain('"MetricName":"4XXError"');
    expect(metrics).toContain('"MetricName":"BlockedRequests","Namespace":"AWS/WAFV2"');
    expect(metrics).toContain('{"Name":"WebACL","Value":"CallbackReceiver-callbacks"}');
  });

  test('DynamoDbThrottles: a throttled PutItem or GetItem pages, and the alarm clears when throttling stops', () => {
    // AWS/DynamoDB publishes only throttled minutes; FILL gives the zeros that clear the alarm.
    const properties = expressionAlarm('DynamoDbThrottles', 'FILL(throttled, 0)', { Threshold: 1 });
    for (const operation of ['PutItem', 'GetItem']) {
      expect(JSON.stringify(properties.Metrics)).toContain(
        `{"Name":"Operation","Value":"${operation}"}`,
      );
    }
  });

  test('RefusalsNotKept: one refusal past the per-minute bound pages, and the alarm clears when they stop', () => {
    // Emitted only when a refusal is not kept; FILL gives the zeros that bring it back to OK.
    expressionAlarm('RefusalsNotKept', 'FILL(notKept, 0)', {
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'CallbackReceiver-RefusalsNotKept',
      Metrics: Match.arrayWith([outcomeMetric('RefusalsNotKept')]),
    });
  });
});

describe('dashboard', () => {
  const widgets = dashboardWidgets();
  const titled = (title: string) => widgets.find((widget) => widget.properties.title === title);

  test('graphs callbacks per outcome, one line per outcome metric', () => {
    const graph = titled('Callbacks per outcome');
    const names = graph?.properties.metrics.map((metric) => metric[1]);
    expect(names).toEqual([...outcomes]);
    // The published names, pinned: a renamed outcome starts a new metric and leaves whatever reads
    // the old one outside this stack blind. Update the snapshot (`vitest -u`) only on purpose.
    expect(names).toMatchInlineSnapshot(`
      [
        "Recorded",
        "Duplicate",
        "Conflict",
        "SettledConflict",
        "Unauthorized",
        "HashRejected",
        "Invalid",
        "StoreUnavailable",
        "ItemRejected",
        "KeysUnavailable",
      ]
    `);
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

  test('graphs the events row: published and not, stream lag, batches in the dead-letter queue', () => {
    const text = JSON.stringify(
      widgets.filter((widget) => widget.properties.title.startsWith('Events')),
    );
    for (const metric of [
      'EventsPublished',
      'EventsNotPublished',
      'UnpublishableRecords',
      'IteratorAge',
      'ApproximateNumberOfMessagesVisible',
    ]) {
      expect(text).toContain(`"${metric}"`);
    }
  });
});
