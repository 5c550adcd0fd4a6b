import { Capture, Match } from 'aws-cdk-lib/assertions';
import type { CfnEventBus } from 'aws-cdk-lib/aws-events';
import { describe, expect, test } from 'vitest';
import { loadStreamConsumerConfig } from '../../../lambda/config/config.js';
import {
  actionsOf,
  bundleOf,
  deniesPlainTransport,
  everythingOn,
  loadInFreshNode,
  type PolicyStatementJson,
  propertiesOf,
  resourcesOf,
  type Synthesized,
  synthesize,
} from '../synth.js';

const synth = synthesize();
const { stack, template } = synth;
const { events } = stack;
const fn = propertiesOf(synth, events.function);
const topicArn = stack.resolve(stack.alarmTopic.topicArn);

/** Every statement of the inline policies on the stream consumer's role. */
function consumerStatements({ stack, template }: Synthesized): PolicyStatementJson[] {
  const policies = template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([stack.resolve(stack.events.role.roleName)]) },
  });
  return Object.values(policies).flatMap(
    (policy) =>
      (policy as { Properties: { PolicyDocument: { Statement: PolicyStatementJson[] } } })
        .Properties.PolicyDocument.Statement,
  );
}
const statements = consumerStatements(synth);
const withActions = (prefix: string, all = statements) =>
  all.filter((statement) => actionsOf(statement).some((action) => action.startsWith(prefix)));

describe('transaction events: bus and archive', () => {
  test('archives every event the product puts on its bus, for 90 days', () => {
    template.hasResourceProperties('AWS::Events::Archive', {
      SourceArn: stack.resolve(events.bus.eventBusArn),
      EventPattern: { source: ['callback-receiver'] },
      RetentionDays: 90,
    });
  });

  test('gives the consumer the bus name, in a form its own config schema accepts', () => {
    const variables = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables.EVENT_BUS_NAME).toEqual(stack.resolve(events.bus.eventBusName));
    // loadStreamConsumerConfig throws, naming each variable it refuses.
    const config = loadStreamConsumerConfig({
      ...(variables as NodeJS.ProcessEnv),
      EVENT_BUS_NAME: 'deployed-bus',
    });
    expect(config.eventBusName).toBe('deployed-bus');
  });
});

describe('transaction events: stream consumer', () => {
  test("reads the table stream from its oldest record: INSERTs, and MODIFYs that are an operator's correction", () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: stack.resolve(stack.table.tableStreamArn),
      FunctionName: stack.resolve(events.function.functionName),
      StartingPosition: 'TRIM_HORIZON',
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ eventName: ['INSERT'] }) },
          {
            Pattern: JSON.stringify({
              eventName: ['MODIFY'],
              dynamodb: {
                NewImage: { record: { S: ['transaction'] }, lastChange: { S: ['correction'] } },
              },
            }),
          },
        ],
      },
    });
  });

  test('filters let through exactly the stream records that become events, all on one mapping (one retry policy, one dead-letter queue)', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as {
      Properties: { FilterCriteria: { Filters: { Pattern: string }[] } };
    }[];
    expect(mappings).toHaveLength(1);
    const patterns = (mappings[0]?.Properties.FilterCriteria.Filters ?? []).map(
      (filter) => JSON.parse(filter.Pattern) as Record<string, unknown>,
    );
    // A tiny evaluator for the two shapes used: equality on eventName and on NewImage strings.
    const passes = (record: { eventName: string; NewImage: Record<string, { S?: string }> }) =>
      patterns.some((pattern) => {
        const image =
          (pattern.dynamodb as { NewImage?: Record<string, { S: string[] }> } | undefined)
            ?.NewImage ?? {};
        return (
          (pattern.eventName as string[]).includes(record.eventName) &&
          Object.entries(image).every(([name, { S }]) =>
            S.includes(record.NewImage[name]?.S ?? '\u0000'),
          )
        );
      });
    const corrected = { record: { S: 'transaction' }, lastChange: { S: 'correction' } };
    expect(passes({ eventName: 'INSERT', NewImage: { record: { S: 'conflict' } } })).toBe(true);
    expect(passes({ eventName: 'MODIFY', NewImage: corrected })).toBe(true);
    expect(
      passes({ eventName: 'MODIFY', NewImage: { ...corrected, lastChange: { S: 'settlement' } } }),
    ).toBe(false);
    expect(passes({ eventName: 'MODIFY', NewImage: { record: { S: 'conflict' } } })).toBe(false);
    expect(passes({ eventName: 'REMOVE', NewImage: corrected })).toBe(false);
  });

  test('reports failures per record, splits a failing batch, and retries a record for up to an hour', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      // Bounded by age, not count: an EventBridge outage shorter than an hour recovers by
      // itself however fast the consumer fails; a record never publishable waits an hour at most.
      MaximumRetryAttempts: -1,
      MaximumRecordAgeInSeconds: 3600,
    });
  });

  test('sends batches that exhaust their retries to the dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      DestinationConfig: {
        OnFailure: { Destination: stack.resolve(events.deadLetterQueue.queueArn) },
      },
    });
  });

  test('runs, traces and is bundled like the receiver function', () => {
    const receiver = propertiesOf(synth, stack.function);
    for (const property of ['Runtime', 'Architectures', 'TracingConfig']) {
      expect(fn[property], property).toEqual(receiver[property]);
    }
    expect(fn.LoggingConfig).toEqual({ LogGroup: stack.resolve(events.logGroup.logGroupName) });
  });

  test('bundle loads as ESM on Node and exports the handler', () => {
    const result = loadInFreshNode(bundleOf(synth, fn), { EVENT_BUS_NAME: 'bus' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('function');
  });
});

describe('transaction events: dead-letter queue', () => {
  test('is encrypted at rest', () => {
    expect(propertiesOf(synth, events.deadLetterQueue)).toMatchObject({
      SqsManagedSseEnabled: true,
    });
  });

  test('refuses requests without TLS', () => {
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [stack.resolve(events.deadLetterQueue.queueUrl)],
      PolicyDocument: deniesPlainTransport,
    });
  });

  test('raises an alarm on its first message, to the stack’s alarm topic', () => {
    const description = new Capture();
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: stack.resolve(events.deadLetterQueue.queueName) }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [topicArn],
      OKActions: [topicArn],
      AlarmDescription: description,
    });
    expect(description.asString()).toMatch(/redrive/i);
  });
});

describe('transaction events: lag', () => {
  test('raises an alarm when the consumer is ten minutes behind the table', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: stack.resolve(events.function.functionName) }],
      Statistic: 'Maximum',
      Threshold: 600_000,
      AlarmActions: [topicArn],
    });
  });
});

describe('transaction events: permissions', () => {
  test('the bus refuses PutEvents from anyone but the consumer’s role', () => {
    template.hasResourceProperties('AWS::Events::EventBus', {
      Policy: {
        Statement: [
          Match.objectLike({
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Action: 'events:PutEvents',
            // By the ARN built from its name: its own Arn inside it would be a cycle.
            Resource: stack.resolve(
              stack.formatArn({
                service: 'events',
                resource: 'event-bus',
                resourceName: (events.bus.node.defaultChild as CfnEventBus).name,
              }),
            ),
            Condition: {
              ArnNotEquals: { 'aws:PrincipalArn': [stack.resolve(events.role.roleArn)] },
            },
          }),
        ],
      },
    });
    // On the bus itself: no AWS::Events::EventBusPolicy, whose deprecated `principal` cdk-nag
    // reads with a warning on every synth.
    template.resourceCountIs('AWS::Events::EventBusPolicy', 0);
  });

  test('the operator roles named in eventPublisherArns may publish too, for replay and redrive', () => {
    const operator = 'arn:aws:iam::123456789012:role/payments-operator';
    const withOperator = synthesize({ eventPublisherArns: operator });
    withOperator.template.hasResourceProperties('AWS::Events::EventBus', {
      Policy: {
        Statement: [
          Match.objectLike({
            Effect: 'Deny',
            Condition: {
              ArnNotEquals: {
                'aws:PrincipalArn': [
                  withOperator.stack.resolve(withOperator.stack.events.role.roleArn),
                  operator,
                ],
              },
            },
          }),
        ],
      },
    });
  });

  test('publishers can be named by a later deploy: it changes the bus policy and nothing else', () => {
    const operator = 'arn:aws:iam::123456789012:role/payments-operator';
    const later = synthesize({ eventPublisherArns: operator });
    const withoutBusPolicy = ({ template: synthesized, stack: built }: typeof later) => {
      const json = synthesized.toJSON();
      const bus = built.getLogicalId(built.events.bus.node.defaultChild as never);
      delete json.Resources[bus].Properties.Policy;
      return json;
    };
    expect(withoutBusPolicy(later)).toEqual(withoutBusPolicy(synth));
  });

  test('eventPublisherArns refuses what is not an IAM role ARN', () => {
    expect(() =>
      synthesize({ eventPublisherArns: 'arn:aws:iam::123456789012:user/alice' }),
    ).toThrow(
      /"eventPublisherArns" item 1 \("arn:aws:iam::123456789012:user\/alice"\) must be an IAM role ARN/,
    );
  });

  test('may put events on its own bus and nowhere else', () => {
    const put = withActions('events:');
    expect(put.map(actionsOf)).toEqual([['events:PutEvents']]);
    expect(put.flatMap(resourcesOf)).toEqual([stack.resolve(events.bus.eventBusArn)]);
  });

  test('may read the table’s stream but not the table', () => {
    const dynamodb = withActions('dynamodb:');
    const onStream = dynamodb.filter((s) => !actionsOf(s).includes('dynamodb:ListStreams'));
    expect(onStream.flatMap(actionsOf).sort()).toEqual([
      'dynamodb:DescribeStream',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
    ]);
    expect(onStream.flatMap(resourcesOf)).toEqual([stack.resolve(stack.table.tableStreamArn)]);
  });

  test('may send to its dead-letter queue only', () => {
    const sqs = withActions('sqs:');
    expect(sqs.flatMap(actionsOf)).toContain('sqs:SendMessage');
    expect(sqs.flatMap(resourcesOf)).toEqual([stack.resolve(events.deadLetterQueue.queueArn)]);
  });

  // dynamodb:ListStreams (CDK's stream read grant) and the X-Ray actions of active tracing take
  // no resource; every other statement names its resource.
  test('uses "*" only for actions that take no resource', () => {
    const wildcard = statements.filter((s) => resourcesOf(s).includes('*'));
    expect(wildcard.flatMap(actionsOf).sort()).toEqual([
      'dynamodb:ListStreams',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
  });

  test('with a customer-managed key, uses that key and no other (stream, dead-letter queue)', () => {
    const withKey = synthesize(everythingOn);
    const kms = withActions('kms:', consumerStatements(withKey));
    expect(kms.flatMap(resourcesOf)).toEqual([
      withKey.stack.resolve(withKey.stack.encryptionKey?.keyArn),
    ]);
    // Decrypt for the stream of the encrypted table; the rest to send to the encrypted queue.
    expect(kms.flatMap(actionsOf).sort()).toEqual([
      'kms:Decrypt',
      'kms:DescribeKey',
      'kms:Encrypt',
      'kms:GenerateDataKey*',
      'kms:ReEncrypt*',
    ]);
  });
});
