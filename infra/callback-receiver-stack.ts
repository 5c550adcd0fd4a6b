import { Aws, CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { HashMode } from '../lambda/config/config.js';
import { Alarms } from './constructs/alarms.js';
import { ApiKeySecret } from './constructs/api-key-secret.js';
import { CallbackApi } from './constructs/callback-api.js';
import { CallbackDashboard } from './constructs/dashboard.js';
import { ReceiverFunction } from './constructs/receiver-function.js';
import { TransactionEvents } from './constructs/transaction-events.js';
import { TransactionsTable } from './constructs/transactions-table.js';

/** What a deployment may choose; `infra/context.ts` reads the same names from CDK context. */
export interface CallbackReceiverSettings {
  /**
   * How strictly the handler checks the callback hash (`HASH_MODE`).
   * @default 'if-present'
   */
  readonly hashMode?: HashMode;
  /**
   * Stage steady-state throttle, requests per second.
   * @default 100
   */
  readonly throttleRateLimit?: number;
  /**
   * Stage burst throttle, requests.
   * @default 200
   */
  readonly throttleBurstLimit?: number;
  /**
   * The payment gateway's source CIDRs: attaches a WAF web ACL that allows only these.
   * @default - no WAF web ACL
   */
  readonly allowedSourceIps?: readonly string[];
  /**
   * WAF rate-based rule: requests per source address per 5 minutes.
   * @default - throttleRateLimit × 300
   */
  readonly wafRateLimit?: number;
  /**
   * E-mail subscription on the alarm topic.
   * @default - no subscription
   */
  readonly alarmEmail?: string;
  /**
   * Read the API keys from this existing secret (name or complete ARN) instead of creating one.
   * @default - the stack creates the secret
   */
  readonly existingSecretName?: string;
  /**
   * Encrypt the table, a created secret and the alarm topic with one customer-managed KMS key.
   * @default false - AWS-owned key for the table, AWS-managed key for the secret
   */
  readonly customerManagedKey?: boolean;
  /**
   * Retention of the function's and the access log groups, in days (a CloudWatch value).
   * @default 90
   */
  readonly logRetentionDays?: number;
  /**
   * Create the account-level role API Gateway needs to write logs.
   * @default true
   */
  readonly apiGatewayCloudWatchRole?: boolean;
  /**
   * 401 + 403 answers per 5 minutes that raise the spike alarm.
   * @default 20
   */
  readonly authFailureAlarmThreshold?: number;
}

export interface CallbackReceiverStackProps extends StackProps, CallbackReceiverSettings {}

export const defaultSettings = {
  hashMode: 'if-present',
  throttleRateLimit: 100,
  throttleBurstLimit: 200,
  logRetentionDays: 90,
  authFailureAlarmThreshold: 20,
} as const;

/**
 * API Gateway → Lambda → DynamoDB receiver for payment-gateway completion callbacks.
 * Built from constructs and exposing them, so later issues (an EventBridge bus fed by the
 * table stream) can add to this stack without reaching into it.
 */
export class CallbackReceiverStack extends Stack {
  readonly table: Table;
  readonly secret: ISecret;
  readonly function: NodejsFunction;
  readonly api: CallbackApi;
  readonly alarmTopic: Topic;
  readonly dashboard: CallbackDashboard;
  readonly events: TransactionEvents;
  /** Present only with `customerManagedKey`. */
  readonly encryptionKey?: Key;

  constructor(scope: Construct, id: string, props: CallbackReceiverStackProps = {}) {
    super(scope, id, props);
    const logRetention = retentionDays(props.logRetentionDays ?? defaultSettings.logRetentionDays);

    // One key for everything the stack encrypts, rotated yearly. RETAIN: the retained table
    // (and its PITR backups) can only be read while this key exists.
    if (props.customerManagedKey) {
      this.encryptionKey = new Key(this, 'Key', {
        description: 'Callback receiver: transactions table, API key secret, alarm topic',
        enableKeyRotation: true,
        removalPolicy: RemovalPolicy.RETAIN,
      });
    }

    this.table = new TransactionsTable(this, 'Transactions', {
      encryptionKey: this.encryptionKey,
    }).table;

    const apiKeys = new ApiKeySecret(this, 'ApiKeys', {
      existingSecretName: props.existingSecretName,
      encryptionKey: this.encryptionKey,
    });
    this.secret = apiKeys.secret;

    const receiver = new ReceiverFunction(this, 'Receiver', {
      table: this.table,
      secretArn: apiKeys.grantArn,
      secretId: apiKeys.secretId,
      hashMode: props.hashMode ?? defaultSettings.hashMode,
      encryptionKey: this.encryptionKey,
      logRetention,
    });
    this.function = receiver.function;

    this.api = new CallbackApi(this, 'CallbackApi', {
      handler: this.function,
      throttleRateLimit: props.throttleRateLimit ?? defaultSettings.throttleRateLimit,
      throttleBurstLimit: props.throttleBurstLimit ?? defaultSettings.throttleBurstLimit,
      allowedSourceIps: props.allowedSourceIps,
      wafRateLimit: props.wafRateLimit,
      logRetention,
      cloudWatchRole: props.apiGatewayCloudWatchRole ?? true,
    });

    const monitored = {
      stage: this.api.api.deploymentStage,
      function: this.function,
      table: this.table,
    };
    this.alarmTopic = new Alarms(this, 'Alarms', {
      ...monitored,
      alarmEmail: props.alarmEmail,
      encryptionKey: this.encryptionKey,
      authFailureThreshold:
        props.authFailureAlarmThreshold ?? defaultSettings.authFailureAlarmThreshold,
    }).topic;
    this.dashboard = new CallbackDashboard(this, 'Dashboard', monitored);

    // Each newly recorded transaction, published once from the table's stream (never from the
    // request path) to an EventBridge bus for the systems that act on it.
    this.events = new TransactionEvents(this, 'Events', {
      table: this.table,
      alarmTopic: this.alarmTopic,
      logRetention,
    });

    // What an operator needs after deploy: where to point the gateway, what to query, where
    // to put the key, where to look.
    new CfnOutput(this, 'CallbackUrl', {
      description: 'Point the payment gateway here (POST)',
      value: this.api.callbackUrl,
    });
    new CfnOutput(this, 'TableName', {
      description: 'Transactions table (RETAIN: survives cdk destroy)',
      value: this.table.tableName,
    });
    new CfnOutput(this, 'SecretName', {
      description: 'Put the API keys here: {"keys":["..."]} or a plain string',
      value: apiKeys.secretName,
    });
    new CfnOutput(this, 'DashboardUrl', {
      description: 'CloudWatch dashboard',
      value: `https://${Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards/dashboard/${this.dashboard.dashboard.dashboardName}`,
    });
    new CfnOutput(this, 'EventBusName', {
      description: 'Subscribe rules here: source callback-receiver, Transaction Completed',
      value: this.events.bus.eventBusName,
    });
    new CfnOutput(this, 'EventsDeadLetterQueueUrl', {
      description: 'Stream batches not published after all retries (see README to redrive)',
      value: this.events.deadLetterQueue.queueUrl,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic every alarm notifies; subscribe more endpoints here',
      value: this.alarmTopic.topicArn,
    });
  }
}

/** A CloudWatch retention from a day count, refusing values CloudWatch does not offer. */
export function retentionDays(days: number): RetentionDays {
  const allowed = Object.values(RetentionDays).filter((value) => typeof value === 'number');
  if (!allowed.includes(days)) {
    throw new Error(`logRetentionDays must be one of ${allowed.join(', ')}; got ${days}`);
  }
  return days as RetentionDays;
}
