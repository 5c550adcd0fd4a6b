import { Aws, CfnOutput, RemovalPolicy, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { transactionFields } from '../lambda/callback/transaction-fields.js';
import { serviceName } from '../lambda/observability/metric-names.js';
import { transactionsTableOf } from '../lambda/storage/table-definition.js';
import { Alarms } from './constructs/alarms.js';
import { ApiKeySecret } from './constructs/api-key-secret.js';
import { CallbackApi } from './constructs/callback-api.js';
import { ConsoleReadPolicy } from './constructs/console-read-policy.js';
import { CallbackDashboard } from './constructs/dashboard.js';
import { ReceiverFunction } from './constructs/receiver-function.js';
import { RefusalsTable } from './constructs/refusals-table.js';
import { SettlePolicy } from './constructs/settle-policy.js';
import { TransactionEvents } from './constructs/transaction-events.js';
import { TransactionsTable } from './constructs/transactions-table.js';
import { optionNames } from './deployment-options.js';
import { type DeploymentOptions, parseDeploymentOptions } from './deployment-settings.js';

/**
 * The stack's props: the deployment options (declared in deployment-options.ts, validated here
 * whether they come from CDK context or from code) plus the CDK's own StackProps. `stackName`,
 * `terminationProtection` and `tags` are options: they are applied to the stack from there.
 */
export type CallbackReceiverStackProps = Omit<
  StackProps,
  'stackName' | 'terminationProtection' | 'tags'
> &
  DeploymentOptions;

/**
 * API Gateway → Lambda → DynamoDB receiver for payment-gateway completion callbacks.
 * Built from constructs and exposing them, so one part is wired to another (the event bus fed by
 * the table's stream, the alarms on the function) through their public members, not their
 * insides.
 */
export class CallbackReceiverStack extends Stack {
  readonly table: Table;
  readonly secret: ISecret;
  readonly refusalsTable: Table;
  readonly function: NodejsFunction;
  readonly api: CallbackApi;
  readonly alarmTopic: Topic;
  readonly dashboard: CallbackDashboard;
  readonly events: TransactionEvents;
  /** For operators who settle conflicts (docs/deploy.md); attached to no one by the stack. */
  readonly settlePolicy: SettlePolicy;
  /** For operators who run the console read-only (docs/deploy.md); attached to no one. */
  readonly consoleReadPolicy: ConsoleReadPolicy;
  /** Present only with `customerManagedKey`. */
  readonly encryptionKey?: Key;

  constructor(scope: Construct, id: string, props: CallbackReceiverStackProps = {}) {
    const settings = parseDeploymentOptions(
      Object.fromEntries(optionNames.map((name) => [name, props[name]])),
    );
    const tags = { service: serviceName, ...settings.tags };
    super(scope, id, {
      ...props,
      stackName: settings.stackName,
      terminationProtection: settings.terminationProtection,
      tags,
    });
    // Stack tags reach resources only when CloudFormation propagates them at deploy time; the
    // same tags on every taggable resource make them visible in the template and in cdk diff.
    for (const [key, value] of Object.entries(tags)) {
      Tags.of(this).add(key, value);
    }
    const logRetention = settings.logRetentionDays;

    // One key for everything the stack encrypts, rotated yearly. RETAIN: the retained table
    // (and its PITR backups) can only be read while this key exists.
    if (settings.customerManagedKey) {
      this.encryptionKey = new Key(this, 'Key', {
        description:
          'Callback receiver: table, API key secret, alarm topic, event bus, archive, DLQ',
        enableKeyRotation: true,
        removalPolicy: RemovalPolicy.RETAIN,
      });
    }

    this.table = new TransactionsTable(this, 'Transactions', {
      encryptionKey: this.encryptionKey,
      definition: transactionsTableOf(transactionFields, undefined, settings.searchIndexes),
    }).table;

    // Authenticated deliveries refused for their content, apart from the transactions: no
    // stream, one index of its own, TTL (see constructs/refusals-table.ts).
    this.refusalsTable = new RefusalsTable(this, 'Refusals', {
      encryptionKey: this.encryptionKey,
    }).table;

    const apiKeys = new ApiKeySecret(this, 'ApiKeys', {
      existingSecretName: settings.existingSecretName,
      encryptionKey: this.encryptionKey,
    });
    this.secret = apiKeys.secret;

    const receiver = new ReceiverFunction(this, 'Receiver', {
      table: this.table,
      refusalsTable: this.refusalsTable,
      secretArn: apiKeys.grantArn,
      secretId: apiKeys.secretId,
      hashMode: settings.hashMode,
      refusalsKeptPerMinute: settings.refusalsKeptPerMinute,
      encryptionKey: this.encryptionKey,
      secretKeyArn: settings.existingSecretKeyArn,
      logRetention,
      // Off by default: a new account cannot reserve any (AWS keeps 100 unreserved, and its
      // quota may be 10 in all), and a deploy that asks fails. Where the quota allows, a cap
      // keeps a DynamoDB brownout (every invocation waiting out its time budget) from taking the
      // account's concurrency from the stream consumer and everything else: at the default
      // stage limit of 100 requests/s and ~50 ms per callback the receiver needs about 5.
      reservedConcurrency:
        settings.reservedConcurrency === 'none' ? undefined : settings.reservedConcurrency,
    });
    this.function = receiver.function;

    this.api = new CallbackApi(this, 'CallbackApi', {
      handler: this.function,
      throttleRateLimit: settings.throttleRateLimit,
      throttleBurstLimit: settings.throttleBurstLimit,
      waf: settings.waf,
      allowedSourceIps: settings.allowedSourceIps,
      wafRateLimit: settings.wafRateLimit,
      logRetention,
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
      ...(settings.domainName && settings.certificateArn
        ? {
            customDomain: {
              domainName: settings.domainName,
              certificateArn: settings.certificateArn,
            },
          }
        : {}),
    });

    const monitored = {
      stage: this.api.api.deploymentStage,
      function: this.function,
      table: this.table,
    };
    this.alarmTopic = new Alarms(this, 'Alarms', {
      ...monitored,
      webAclName: this.api.webAcl?.name,
      alarmEmail: settings.alarmEmail,
      encryptionKey: this.encryptionKey,
      authFailureThreshold: settings.authFailureAlarmThreshold,
    }).topic;

    // Each newly recorded transaction, published once from the table's stream (never from the
    // request path) to an EventBridge bus for the systems that act on it.
    this.events = new TransactionEvents(this, 'Events', {
      table: this.table,
      alarmTopic: this.alarmTopic,
      logRetention,
      encryptionKey: this.encryptionKey,
      publisherRoleArns: settings.eventPublisherArns,
    });
    this.settlePolicy = new SettlePolicy(this, 'Settle', {
      table: this.table,
      refusalsTable: this.refusalsTable,
    });
    this.consoleReadPolicy = new ConsoleReadPolicy(this, 'ConsoleRead', {
      table: this.table,
      refusalsTable: this.refusalsTable,
    });
    this.dashboard = new CallbackDashboard(this, 'Dashboard', {
      ...monitored,
      events: this.events,
    });

    // What an operator needs after deploy: where to point the gateway, what to query, where
    // to put the key, where to look.
    const output = (id: string, description: string, value: string) =>
      new CfnOutput(this, id, { exportName: `${this.stackName}-${id}`, description, value });
    output('CallbackUrl', 'Point the payment gateway here (POST)', this.api.callbackUrl);
    output('TableName', 'Transactions table (RETAIN: survives cdk destroy)', this.table.tableName);
    output(
      'RefusalsTableName',
      'Refused deliveries kept for their retention: npx callback-receiver query refused --table',
      this.refusalsTable.tableName,
    );
    output(
      'SecretName',
      'Put the API keys here: {"keys":["..."]} or a plain string',
      apiKeys.secretName,
    );
    output(
      'DashboardUrl',
      'CloudWatch dashboard',
      `https://${Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards/dashboard/${this.dashboard.dashboard.dashboardName}`,
    );
    output(
      'EventBusName',
      'Subscribe rules here: source callback-receiver, Transaction Completed',
      this.events.bus.eventBusName,
    );
    output(
      'EventsDeadLetterQueueUrl',
      'Stream batches not published after all retries (docs/operations.md: redrive)',
      this.events.deadLetterQueue.queueUrl,
    );
    output(
      'SettlePolicyArn',
      'Attach to operators who settle conflicts or mark refusals resolved: least privilege',
      this.settlePolicy.policy.managedPolicyArn,
    );
    output(
      'ConsoleReadPolicyArn',
      'Attach to operators who run npx callback-receiver console --stack (read-only): least privilege',
      this.consoleReadPolicy.policy.managedPolicyArn,
    );
    if (this.api.domain && this.api.customCallbackUrl) {
      output(
        'CustomDomainTarget',
        'Point the custom domain here in DNS (CNAME, or a Route 53 alias)',
        this.api.domain.domainNameAliasDomainName,
      );
      output(
        'CustomCallbackUrl',
        'The callback URL under the custom domain, once its DNS record is in place',
        this.api.customCallbackUrl,
      );
    }
    output(
      'AlarmTopicArn',
      'SNS topic every alarm notifies; subscribe more endpoints here',
      this.alarmTopic.topicArn,
    );
  }
}
