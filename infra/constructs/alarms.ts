import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { acknowledgeFinding } from '../nag.js';
import { outcomeMetric } from './outcome-metrics.js';

const period = Duration.minutes(5);
/** Share of requests answered 5xx over 5 minutes (the function's 503s included). */
export const serverErrorRateThreshold = 0.05;

export interface AlarmsProps {
  readonly stage: Stage;
  readonly function: IFunction;
  readonly table: ITable;
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

/** Alarms on what needs a human, all to one SNS topic. */
export class Alarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);

    this.topic = new Topic(this, 'Topic', {
      displayName: 'Callback receiver alarms',
      enforceSSL: true,
      masterKey: props.encryptionKey,
    });
    if (props.encryptionKey) {
      // CloudWatch publishes to an encrypted topic only if the key lets it.
      props.encryptionKey.addToResourcePolicy(
        new PolicyStatement({
          sid: 'AllowCloudWatchAlarmsToPublishToEncryptedTopic',
          principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
          resources: ['*'],
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

    // 5xx rate at the stage: the function's 503s and every gateway-generated 5xx.
    this.add('ServerErrorRate', {
      metric: props.stage.metricServerError({ statistic: 'Average', period }),
      threshold: serverErrorRateThreshold,
      operator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: `More than ${serverErrorRateThreshold * 100}% of callbacks answered 5xx in 5 minutes.`,
    });
    // The handler maps every failure to a response, so an Error is a crash or a timeout.
    this.add('FunctionErrors', {
      metric: props.function.metricErrors({ statistic: 'Sum', period }),
      threshold: 1,
      description: 'The receiver function crashed or timed out.',
    });
    this.add('FunctionThrottles', {
      metric: props.function.metricThrottles({ statistic: 'Sum', period }),
      threshold: 1,
      description: 'Lambda throttled the receiver (account or function concurrency reached).',
    });
    // One conflict is already worth a look: a reference reused with different content.
    this.add('Conflict', {
      metric: outcomeMetric('Conflict', { period }),
      threshold: 1,
      description: 'A callback reused a recorded reference with different content (409).',
    });
    this.add('AuthFailureSpike', {
      metric: new MathExpression({
        expression: 'unauthorized + hashRejected',
        usingMetrics: {
          unauthorized: outcomeMetric('Unauthorized', { period }),
          hashRejected: outcomeMetric('HashRejected', { period }),
        },
        label: '401 + 403',
        period,
      }),
      threshold: props.authFailureThreshold ?? 20,
      description: 'Many callbacks refused with 401/403: a wrong key on the gateway, or probing.',
    });
    this.add('DynamoDbThrottles', {
      metric: props.table.metricThrottledRequestsForOperations({
        operations: [Operation.PUT_ITEM, Operation.GET_ITEM],
        statistic: 'Sum',
        period,
      }),
      threshold: 1,
      description: 'DynamoDB throttled PutItem/GetItem on the transactions table.',
    });
  }

  private add(
    id: string,
    options: {
      metric: IMetric;
      threshold: number;
      description: string;
      operator?: ComparisonOperator;
    },
  ): void {
    const alarm = new Alarm(this, id, {
      metric: options.metric,
      threshold: options.threshold,
      comparisonOperator: options.operator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      // No traffic is not a failure.
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: options.description,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
  }
}
