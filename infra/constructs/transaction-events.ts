import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type Archive, EventBus } from 'aws-cdk-lib/aws-events';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { eventSource } from '../../lambda/events/transaction-event.js';
import {
  defaultMetricsNamespace as metricsNamespace,
  serviceName,
} from '../../lambda/observability/metric-names.js';
import { acknowledgeFinding } from '../nag.js';
import { functionDefaults } from './function-defaults.js';

/** The stream consumer's module: `lambda/stream-consumer.ts` at the repository root. */
export const streamHandlerEntry = fileURLToPath(
  new URL('../../lambda/stream-consumer.ts', import.meta.url),
);

/**
 * Up to 100 records per invocation: at most ten PutEvents requests, sent one after another.
 * 60 s: each request is bounded by the client (3 attempts × 3 s) plus entry re-sends, so a batch
 * normally takes well under a second and a slow EventBridge fails records rather than timing out.
 */
export const streamBatchSize = 100;
export const consumerTimeout = Duration.seconds(60);

export interface TransactionEventsProps {
  /** The transactions table; its stream (NEW_IMAGE) feeds the consumer. */
  readonly table: ITable;
  /** Where the dead-letter and lag alarms go: the stack's alarm topic. */
  readonly alarmTopic: ITopic;
  readonly logRetention: RetentionDays;
  /**
   * How long the bus's archive keeps events for replay. The table (PITR, RETAIN) stays the
   * system of record; the archive is for replaying to a consumer that missed or mishandled events.
   * @default Duration.days(90)
   */
  readonly archiveRetention?: Duration;
  /**
   * Retries of a failing batch before its metadata goes to the dead-letter queue. Splitting the
   * batch (bisect) does not count. Every retry holds back the records behind it in the shard.
   * @default 10
   */
  readonly retryAttempts?: number;
}

/**
 * The hand-off: the table's stream → a consumer function → an EventBridge bus with an archive.
 * Records that cannot be published after the retries leave their batch's metadata in an
 * encrypted SQS dead-letter queue, whose first message raises an alarm.
 */
export class TransactionEvents extends Construct {
  readonly bus: EventBus;
  readonly archive: Archive;
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;
  readonly deadLetterQueue: Queue;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: TransactionEventsProps) {
    super(scope, id);
    const tableStreamArn = props.table.tableStreamArn;
    if (tableStreamArn === undefined) {
      throw new Error('TransactionEvents needs a table with a stream (NEW_IMAGE)');
    }

    this.bus = new EventBus(this, 'Bus', {
      description: 'Callback receiver: Transaction Completed and Transaction Conflict events',
    });
    // Everything this product publishes, so any consumer can be replayed from here.
    this.archive = this.bus.archive('Archive', {
      description: 'Every callback-receiver event, for replay to consumers',
      eventPattern: { source: [eventSource] },
      retention: props.archiveRetention ?? Duration.days(90),
    });

    // Holds batch metadata only (shard, sequence numbers, times; never transaction data): the
    // README says how to redrive from it. SQS-managed encryption even with the stack's key: a
    // KMS queue would need the consumer to hold kms:GenerateDataKey* and kms:ReEncrypt* for
    // nothing secret. 14 days, the maximum: redriving from the table works after the stream's 24 h.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
      encryption: QueueEncryption.SQS_MANAGED,
    });
    acknowledgeFinding(
      this.deadLetterQueue,
      'AwsSolutions-SQS3',
      'This queue is itself the dead-letter destination: the on-failure destination of the ' +
        'table stream event source mapping, which cdk-nag cannot see as a redrive target.',
    );
    acknowledgeFinding(
      this.deadLetterQueue,
      'Serverless-SQSRedrivePolicy',
      'Terminal dead-letter queue: an operator reads its messages to redrive the stream batch ' +
        'they name, so there is no consumer whose failures would need a further queue.',
    );

    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Transaction events: read the table stream, put events on its bus, own logs',
    });
    this.logGroup.grantWrite(this.role);

    // Runtime, architecture, tracing and bundling as in ReceiverFunction (receiver-function.ts);
    // a test in transaction-events.test.ts fails if the two drift apart.
    this.function = new NodejsFunction(this, 'Function', {
      ...functionDefaults,
      entry: streamHandlerEntry,
      memorySize: 256,
      timeout: consumerTimeout,
      role: this.role,
      logGroup: this.logGroup,
      description: 'Publishes newly recorded transactions from the table stream to EventBridge',
      environment: {
        EVENT_BUS_NAME: this.bus.eventBusName,
        POWERTOOLS_SERVICE_NAME: serviceName,
        POWERTOOLS_METRICS_NAMESPACE: metricsNamespace,
        POWERTOOLS_LOG_LEVEL: 'INFO',
      },
    });

    // PutEvents on this bus only, written out rather than `grantPutEventsTo` to carry a sid.
    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'PutTransactionEvents',
        effect: Effect.ALLOW,
        actions: ['events:PutEvents'],
        resources: [this.bus.eventBusArn],
      }),
    );

    // bisectBatchOnError + reportBatchItemFailures: Lambda splits a batch at the first reported
    // record, so a record that keeps failing ends up alone and goes to the queue after the
    // retries, while the records behind it are published. Only INSERTs reach the function:
    // MODIFY and REMOVE never produce an event, so they need not cost an invocation.
    this.function.addEventSource(
      new DynamoEventSource(props.table, {
        // From the oldest record still in the stream: nothing written before the mapping
        // existed is skipped (LATEST would skip it).
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: streamBatchSize,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: props.retryAttempts ?? 10,
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT') })],
      }),
    );
    // CDK's stream read grant adds dynamodb:ListStreams on "*", and active tracing adds
    // xray:PutTraceSegments/PutTelemetryRecords on "*": none of them takes a resource.
    acknowledgeFinding(
      this.role.node.tryFindChild('DefaultPolicy') ?? this.role,
      'AwsSolutions-IAM5[Resource::*]',
      'Only dynamodb:ListStreams (added by the stream read grant) and the X-Ray actions of ' +
        'active tracing use "*": none of them supports resource-level permissions. Stream ' +
        'reads, PutEvents and SendMessage name their single resource.',
    );
    acknowledgeFinding(
      this.function,
      'Serverless-LambdaDLQ',
      'Invoked only by the DynamoDB stream event source mapping, never asynchronously; failed ' +
        'batches go to the mapping’s on-failure destination (the SQS dead-letter queue).',
    );

    // One message is a batch not published after every retry: someone has to redrive it.
    this.alarm('DeadLetters', props.alarmTopic, {
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        statistic: 'Maximum',
        period: Duration.minutes(1),
      }),
      threshold: 1,
      description:
        'Transaction events were not published after all retries: their stream batch is in the ' +
        'dead-letter queue. Redrive it (README, Downstream events) within 24 hours.',
    });
    // The age of the newest record read: it grows while a batch is retried or the consumer lags.
    this.alarm('StreamLag', props.alarmTopic, {
      metric: this.function.metric('IteratorAge', {
        statistic: 'Maximum',
        period: Duration.minutes(5),
      }),
      threshold: Duration.minutes(10).toMilliseconds(),
      description:
        'Transaction events are more than 10 minutes behind the table: a batch is being ' +
        'retried or the consumer cannot keep up.',
    });
  }

  private alarm(
    id: string,
    topic: ITopic,
    options: { metric: IMetric; threshold: number; description: string },
  ): void {
    const alarm = new Alarm(this, id, {
      metric: options.metric,
      threshold: options.threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      // No traffic is not a failure.
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: options.description,
    });
    const action = new SnsAction(topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
  }
}
