import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  type Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import * as z from 'zod';
import { refusalMetrics } from '../../lambda/observability/metric-names.js';
import { acknowledgeFinding } from '../nag.js';
import { alarmToTopic } from './alarm-to-topic.js';
import { checkProps } from './checked-props.js';
import { serviceMetric } from './service-metric.js';

const period = Duration.minutes(5);
/** Share of requests answered 5xx, per minute, that counts toward the 5xx-rate alarm. */
export const serverErrorRateThreshold = 0.05;
/**
 * Requests per minute below which the 5xx rate is not judged: one 503 in ten requests is a
 * blip a gateway's retry absorbs, not a reason to page someone.
 */
export const serverErrorVolumeFloor = 20;
/** Requests refused at the edge (WAF blocks + 4xx at the stage) per 5 minutes that alarm. */
export const edgeRejectionThreshold = 50;

export interface AlarmsProps {
  readonly stage: Stage;
  readonly function: IFunction;
  readonly table: ITable;
  /**
   * The web ACL's name, when the stage has one: its blocks count as edge rejections.
   * @default - no WAF: only 4xx at the stage count
   */
  readonly webAclName?: string;
  /**
   * Address that gets every alarm by e-mail (the subscription must be confirmed).
   * @default - no subscription; subscribe to the topic yourself
   */
  readonly alarmEmail?: string;
  /**
   * Customer-managed key for the topic; its policy is extended so CloudWatch can publish.
   * (CloudWatch cannot publish to a topic under the AWS-managed `aws/sns` key.)
   * @default - no topic encryption: notifications hold alarm names and values, no callback data
   */
  readonly encryptionKey?: IKey;
  /**
   * 401 + 403 answers per 5 minutes that count as a spike (a wrong key deployed on the
   * gateway's side, or someone probing the URL).
   * @default 20
   */
  readonly authFailureThreshold?: number;
}

const authFailureRule = 'authFailureThreshold must be a positive integer';
const alarmsRules = z.object({
  authFailureThreshold: z
    .number(authFailureRule)
    .int(authFailureRule)
    .positive(authFailureRule)
    .optional(),
});

/**
 * Alarms on what needs a human, all to one SNS topic. Each one's missing-data treatment follows
 * how its metric is published: the function's outcome metrics (EMF) and DynamoDB's throttles
 * exist only when something happened, so sums fill the gaps with 0 and no data is no failure.
 */
export class Alarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    checkProps(this.node.path, alarmsRules, props);
    const authFailureThreshold = props.authFailureThreshold ?? 20;

    this.topic = new Topic(this, 'Topic', {
      displayName: 'Callback receiver alarms',
      enforceSSL: true,
      masterKey: props.encryptionKey,
    });
    if (props.encryptionKey) {
      // CloudWatch publishes to an encrypted topic only if the key lets it: only for this
      // account's alarms (aws:SourceAccount), so no other account's CloudWatch can use the key.
      props.encryptionKey.addToResourcePolicy(
        new PolicyStatement({
          sid: 'AllowCloudWatchAlarmsToPublishToEncryptedTopic',
          principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          resources: ['*'],
          conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
        }),
      );
    }
    if (props.alarmEmail) {
      const subscription = this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
      acknowledgeFinding(
        subscription,
        'Serverless-SNSRedrivePolicy',
        'E-mail subscription for alarm notifications only: SNS retries delivery itself and ' +
          'the alarm state stays in CloudWatch, so an undelivered message loses no data.',
      );
    }
    const add = (alarmId: string, options: Omit<Parameters<typeof alarmToTopic>[2], 'topic'>) =>
      this.alarms.push(alarmToTopic(this, alarmId, { ...options, topic: this.topic }));
    const minute = Duration.minutes(1);
    const outcome = (name: Parameters<typeof serviceMetric>[1]) =>
      serviceMetric(this, name, { period });

    // 5xx rate at the stage (the function's 503s and every gateway-generated 5xx), judged per
    // minute only above a volume floor, and only when 3 of 5 minutes are bad: a short blip is
    // absorbed by the gateway's retries.
    add('ServerErrorRate', {
      metric: new MathExpression({
        expression: `IF(requests >= ${serverErrorVolumeFloor}, errors / requests, 0)`,
        usingMetrics: {
          requests: props.stage.metricCount({ statistic: 'Sum', period: minute }),
          errors: props.stage.metricServerError({ statistic: 'Sum', period: minute }),
        },
        label: '5xx share (above the volume floor)',
        period: minute,
      }),
      threshold: serverErrorRateThreshold,
      operator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      // API Gateway publishes only for minutes with requests: no traffic is no failure.
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description:
        `More than ${serverErrorRateThreshold * 100}% of callbacks answered 5xx in 3 of the ` +
        `last 5 minutes (minutes under ${serverErrorVolumeFloor} requests not judged).`,
    });
    // The handler maps every failure to a response, so an Error is a crash or a timeout.
    add('FunctionErrors', {
      metric: props.function.metricErrors({ statistic: 'Sum', period }),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: 'The receiver function crashed or timed out.',
    });
    add('FunctionThrottles', {
      metric: props.function.metricThrottles({ statistic: 'Sum', period }),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description:
        'Lambda throttled the receiver: its reserved concurrency (or the account) is exhausted, ' +
        'callbacks get 503 + Retry-After. Usually DynamoDB is slow; see the dashboard.',
    });
    // One conflict is already worth a look: a reference reused with different content.
    add('Conflict', {
      metric: outcome('Conflict'),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: 'A callback reused a recorded reference with different content (409).',
    });
    // DynamoDB refused the item itself: not an outage, a callback the receiver cannot store.
    add('ItemRejected', {
      metric: outcome('ItemRejected'),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description:
        'DynamoDB refused to store a callback (500: validation error or item too large). The ' +
        'gateway will not succeed by retrying; the function log names the reason.',
    });
    // Nothing can be recorded while no key can be read.
    add('KeysUnavailable', {
      metric: outcome('KeysUnavailable'),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description:
        'The API keys could not be read from Secrets Manager: callbacks get 503 + Retry-After ' +
        'and nothing is recorded. Check the secret, its key policy and the function role.',
    });
    // The minute's bound on kept refusals was reached: a caller with a valid key is sending many
    // distinct refused bodies (a broken integration, or a leaked key). The refusals were answered
    // as usual but are not kept for audit. Emitted only when it happens: FILL brings it back to OK.
    add('RefusalsNotKept', {
      metric: new MathExpression({
        expression: 'FILL(notKept, 0)',
        usingMetrics: { notKept: serviceMetric(this, refusalMetrics.notKept, { period }) },
        label: 'Refusals not kept (over the per-minute bound)',
        period,
      }),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description:
        'Refused deliveries were not kept for audit: more new refused bodies per minute than ' +
        'refusalsKeptPerMinute allows. The sender has a valid key; see query refused and the ' +
        'function log (kept: false).',
    });
    // Two sparse sums: FILL each, or a window with 401s only (no 403 point) would add to nothing.
    add('AuthFailureSpike', {
      metric: new MathExpression({
        expression: 'FILL(unauthorized, 0) + FILL(hashRejected, 0)',
        usingMetrics: {
          unauthorized: outcome('Unauthorized'),
          hashRejected: outcome('HashRejected'),
        },
        label: '401 + 403',
        period,
      }),
      threshold: authFailureThreshold,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: 'Many callbacks refused with 401/403: a wrong key on the gateway, or probing.',
    });
    // Requests refused before the function: WAF blocks (allow-list, rate, size) and 4xx at the
    // stage (throttling, 413). Chosen over "no callback for N minutes", which needs a traffic
    // expectation this product cannot know; a gateway shut out by its own address change or a
    // backlog hitting the rate rule shows here.
    const edgeMetrics: Record<string, Metric> = {
      stage4xx: props.stage.metricClientError({ statistic: 'Sum', period }),
    };
    if (props.webAclName) {
      edgeMetrics.wafBlocked = new Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'BlockedRequests',
        dimensionsMap: { WebACL: props.webAclName, Rule: 'ALL', Region: Stack.of(this).region },
        statistic: 'Sum',
        period,
      });
    }
    add('EdgeRejections', {
      metric: new MathExpression({
        expression: Object.keys(edgeMetrics)
          .map((name) => `FILL(${name}, 0)`)
          .join(' + '),
        usingMetrics: edgeMetrics,
        label: props.webAclName ? 'WAF blocks + 4xx at the stage' : '4xx at the stage',
        period,
      }),
      threshold: edgeRejectionThreshold,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description:
        `At least ${edgeRejectionThreshold} requests refused in 5 minutes at the edge ` +
        '(WAF block, throttle, 4xx): the gateway may be shut out or rate limited.',
    });
    // AWS/DynamoDB publishes ThrottledRequests only when a request is throttled, and an alarm on
    // it alone ignores missing data: it would stay in ALARM after the throttling ends. FILL
    // gives it the zeros that bring it back to OK.
    add('DynamoDbThrottles', {
      metric: new MathExpression({
        expression: 'FILL(throttled, 0)',
        usingMetrics: {
          throttled: props.table.metricThrottledRequestsForOperations({
            operations: [Operation.PUT_ITEM, Operation.GET_ITEM],
            statistic: 'Sum',
            period,
          }),
        },
        label: 'Throttled PutItem + GetItem',
        period,
      }),
      threshold: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      description: 'DynamoDB throttled PutItem/GetItem on the transactions table.',
    });
  }
}
