import { fileURLToPath } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import { type Alarm, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type Archive, type CfnArchive, type CfnEventBus, EventBus } from 'aws-cdk-lib/aws-events';
import {
  AnyPrincipal,
  Effect,
  PolicyDocument,
  PolicyStatement,
  type Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import * as z from 'zod';
import { eventSource } from '../../lambda/events/transaction-event.js';
import { lastChanges, settlementAttributes } from '../../lambda/settle/settlement.js';
import { acknowledgeFinding } from '../nag.js';
import { alarmToTopic } from './alarm-to-topic.js';
import { checkProps } from './checked-props.js';
import { ServiceFunction } from './service-function.js';

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
   * How long a failing record is retried before its batch's metadata goes to the dead-letter
   * queue. Retries are not counted but bounded by age: a consumer that fails fast (as it does
   * when EventBridge is down) would spend any retry count in seconds, while an age lets an
   * outage shorter than it recover by itself. It is also the longest a record that can never be
   * published holds back the records behind it in its shard (the lag alarm fires at 10 minutes).
   * At most the stream's 24 hours.
   * @default Duration.hours(1)
   */
  readonly maxRecordAge?: Duration;
  /**
   * Roles besides the consumer's that may publish on the bus (operators running replay and
   * redrive); every other principal is denied PutEvents.
   * @default - none
   */
  readonly publisherRoleArns?: readonly string[];
  /**
   * Customer-managed key for the bus, its archive and the dead-letter queue.
   * @default - AWS-owned keys (bus, archive) and SQS-managed encryption (queue)
   */
  readonly encryptionKey?: IKey;
}

const transactionEventsRules = z.object({
  table: z.custom<ITable>(
    (table) => (table as ITable).tableStreamArn !== undefined,
    'TransactionEvents needs a table with a stream (NEW_IMAGE)',
  ),
  maxRecordAge: z
    .custom<Duration>(
      (age) => (age as Duration).toSeconds() >= 60 && (age as Duration).toSeconds() <= 86_400,
      'maxRecordAge must be from 1 minute to 24 hours',
    )
    .optional(),
});

/**
 * The hand-off: the table's stream → a consumer function → an EventBridge bus with an archive.
 * Records that cannot be published after the retries leave their batch's metadata in an
 * encrypted SQS dead-letter queue, whose first message raises an alarm.
 */
export class TransactionEvents extends Construct {
  readonly bus: EventBus;
  readonly archive: Archive;
  readonly function: ServiceFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;
  readonly deadLetterQueue: Queue;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: TransactionEventsProps) {
    super(scope, id);
    checkProps(this.node.path, transactionEventsRules, props);
    const maxRecordAge = props.maxRecordAge ?? Duration.hours(1);

    this.bus = new EventBus(this, 'Bus', {
      description:
        'Callback receiver: Transaction Completed, Transaction Conflict and Transaction Corrected events',
      kmsKey: props.encryptionKey,
    });
    // Everything this product publishes, so any consumer can be replayed from here.
    this.archive = this.bus.archive('Archive', {
      description: 'Every callback-receiver event, for replay to consumers',
      eventPattern: { source: [eventSource] },
      retention: props.archiveRetention ?? Duration.days(90),
    });
    if (props.encryptionKey) {
      this.encryptArchive(props.encryptionKey);
    }

    // Holds batch metadata only (shard, sequence numbers, times; never transaction data):
    // docs/operations.md says how to redrive from it. Under the stack's key when there is one,
    // so every store of the product is covered by it. 14 days, the maximum: redriving from the
    // table works after the stream's 24 h.
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      enforceSSL: true,
      ...(props.encryptionKey
        ? { encryption: QueueEncryption.KMS, encryptionMasterKey: props.encryptionKey }
        : { encryption: QueueEncryption.SQS_MANAGED }),
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

    const consumer = new ServiceFunction(this, 'Function', {
      entry: streamHandlerEntry,
      description: 'Publishes newly recorded transactions from the table stream to EventBridge',
      roleDescription: 'Transaction events: read the table stream, put events on its bus, own logs',
      memorySize: 256,
      timeout: consumerTimeout,
      logRetention: props.logRetention,
      environment: { EVENT_BUS_NAME: this.bus.eventBusName },
    });
    this.function = consumer;
    this.logGroup = consumer.functionLogGroup;
    this.role = consumer.executionRole;

    // PutEvents on this bus only, written out rather than `grantPutEventsTo` to carry a sid.
    this.function.allow('PutTransactionEvents', ['events:PutEvents'], [this.bus.eventBusArn]);

    // bisectBatchOnError + reportBatchItemFailures: Lambda splits a batch at the first reported
    // record, so a record that keeps failing ends up alone and goes to the queue after the
    // retries, while the records behind it are published. Only INSERTs and an operator's
    // corrections (a MODIFY whose new image says `lastChange: correction`, see
    // lambda/settle/settlement.ts) reach the function: no other MODIFY, and no REMOVE, produces
    // an event, so they need not cost an invocation.
    this.function.addEventSource(
      new DynamoEventSource(props.table, {
        // From the oldest record still in the stream: nothing written before the mapping
        // existed is skipped (LATEST would skip it).
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: streamBatchSize,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: -1,
        maxRecordAge,
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [
          FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT') }),
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('MODIFY'),
            dynamodb: {
              NewImage: {
                record: { S: FilterRule.isEqual('transaction') },
                [settlementAttributes.lastChange]: {
                  S: FilterRule.isEqual(lastChanges.correction),
                },
              },
            },
          }),
        ],
      }),
    );
    // Only the consumer (and the operator roles named for replay and redrive) publishes here:
    // without this policy anyone in the account holding events:PutEvents could put a
    // "Transaction Completed" that consumers would credit. The archive's replays come from
    // EventBridge itself and are not PutEvents calls. The roles can be named by any later
    // deploy: the policy is a property of the bus, updated in place.
    this.denyPutEventsToOthers(props.publisherRoleArns ?? []);
    if (props.encryptionKey) {
      // Sending to a queue under the stack's key: CDK's grant names the one key.
      for (const action of ['kms:GenerateDataKey*', 'kms:ReEncrypt*']) {
        acknowledgeFinding(
          this.role.node.tryFindChild('DefaultPolicy') ?? this.role,
          `AwsSolutions-IAM5[Action::${action}]`,
          'Granted by CDK so the stream mapping can put failed batches on the dead-letter ' +
            'queue under the stack key; the statement names that single key.',
        );
      }
    }
    acknowledgeFinding(
      this.function,
      'Serverless-LambdaDLQ',
      'Invoked only by the DynamoDB stream event source mapping, never asynchronously; failed ' +
        'batches go to the mapping’s on-failure destination (the SQS dead-letter queue).',
    );

    // One message is a batch not published after every retry: someone has to redrive it. SQS
    // publishes queue metrics only while the queue is active (messages in it, or a call on it
    // in the last 6 hours): a missing point keeps the last state (IGNORE), so an alarm raised
    // for a message stays raised until a point shows the queue empty.
    this.alarms.push(
      alarmToTopic(this, 'DeadLetters', {
        topic: props.alarmTopic,
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          statistic: 'Maximum',
          period: Duration.minutes(1),
        }),
        threshold: 1,
        treatMissingData: TreatMissingData.IGNORE,
        description:
          'Transaction events were not published after all retries: their stream batch is in ' +
          'the dead-letter queue. Redrive it (docs/operations.md) within 24 hours.',
      }),
    );
    // The age of the newest record read: it grows while a batch is retried or the consumer
    // lags. Published per invocation: no invocation means nothing is waiting.
    this.alarms.push(
      alarmToTopic(this, 'StreamLag', {
        topic: props.alarmTopic,
        metric: this.function.metric('IteratorAge', {
          statistic: 'Maximum',
          period: Duration.minutes(5),
        }),
        threshold: Duration.minutes(10).toMilliseconds(),
        treatMissingData: TreatMissingData.NOT_BREACHING,
        description:
          'Transaction events are more than 10 minutes behind the table: a batch is being ' +
          'retried or the consumer cannot keep up.',
      }),
    );
  }
  /**
   * The bus's resource policy, set on the bus itself rather than through `addToResourcePolicy`:
   * that one adds an AWS::Events::EventBusPolicy, a resource whose deprecated `principal` cdk-nag
   * reads, printing a deprecation warning on every synth. The bus is named by the ARN built from
   * its generated (literal) name: its own `Arn` inside its own properties would be a cycle.
   */
  private denyPutEventsToOthers(publisherRoleArns: readonly string[]): void {
    const deny = new PolicyStatement({
      sid: 'OnlyTheConsumerPublishes',
      effect: Effect.DENY,
      principals: [new AnyPrincipal()],
      actions: ['events:PutEvents'],
      resources: [this.busArnByName()],
      // A negated operator with several values holds when the principal matches none of them.
      conditions: {
        ArnNotEquals: { 'aws:PrincipalArn': [this.role.roleArn, ...publisherRoleArns] },
      },
    });
    (this.bus.node.defaultChild as CfnEventBus).policy = new PolicyDocument({
      statements: [deny],
    }).toJSON();
  }

  private busArnByName(): string {
    return Stack.of(this).formatArn({
      service: 'events',
      resource: 'event-bus',
      resourceName: (this.bus.node.defaultChild as CfnEventBus).name,
    });
  }

  /**
   * The archive under the stack's key. Not through the Archive's `kmsKey`: its key statement
   * names the bus by reference while the bus names the key, a cycle CloudFormation refuses.
   * Here the bus is named by the ARN built from its generated (literal) name, as the bus's own
   * key statement does; that statement already grants Decrypt and GenerateDataKey, the archive
   * also needs ReEncrypt.
   */
  private encryptArchive(key: IKey): void {
    const stack = Stack.of(this);
    const busArn = this.busArnByName();
    key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowEventBridgeArchiveToReEncrypt',
        principals: [new ServicePrincipal('events.amazonaws.com')],
        actions: ['kms:ReEncrypt*'],
        resources: ['*'],
        conditions: {
          StringEquals: {
            'aws:SourceAccount': stack.account,
            'kms:EncryptionContext:aws:events:event-bus:arn': busArn,
          },
        },
      }),
    );
    (this.archive.node.defaultChild as CfnArchive).kmsKeyIdentifier = key.keyArn;
  }
}
