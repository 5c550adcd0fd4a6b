import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { HashMode } from '../../lambda/config/config.js';
import {
  defaultMetricsNamespace as metricsNamespace,
  serviceName,
} from '../../lambda/observability/metric-names.js';
import { acknowledgeFinding } from '../nag.js';
import { functionDefaults } from './function-defaults.js';

/** The handler module, relative to this file: `lambda/receiver.ts` at the repository root. */
export const handlerEntry = fileURLToPath(new URL('../../lambda/receiver.ts', import.meta.url));

/**
 * SDK budget for DynamoDB, mirrored into the environment so the Lambda timeout below is visibly
 * derived from it: 3 attempts × 2 s = 6 s worst case, plus cold start and the secret fetch.
 */
export const dynamodbTimeoutMs = 2000;
export const dynamodbMaxAttempts = 3;

/**
 * 10 s: above the 6 s SDK worst case, far inside API Gateway's 29 s integration limit, so the
 * function always answers (503 + Retry-After) before the gateway gives up with its own 504.
 * 512 MB: arm64 CPU scales with memory; enough for a fast cold start of the bundled SDK.
 * Both are a starting point: the benchmark issue refines them from measurements.
 */
export const functionTimeout = Duration.seconds(10);
export const functionMemoryMb = 512;

export interface ReceiverFunctionProps {
  readonly table: ITable;
  /** ARN (or ARN pattern, see `ApiKeySecret.grantArn`) the function may read. */
  readonly secretArn: string;
  /** Name or ARN the handler passes to `GetSecretValue`. */
  readonly secretId: string;
  /**
   * How strictly the handler checks the callback hash.
   * @default 'if-present'
   */
  readonly hashMode?: HashMode;
  /**
   * The customer-managed key of the table (and of a created secret), when one is used.
   * @default - AWS-owned/AWS-managed keys, no KMS permission needed
   */
  readonly encryptionKey?: IKey;
  readonly logRetention: RetentionDays;
  /**
   * The handler module.
   * @default lambda/receiver.ts
   */
  readonly entry?: string;
}

/** The callback handler: bundled ESM on Node 24 / arm64 with a least-privilege role. */
export class ReceiverFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ReceiverFunctionProps) {
    super(scope, id);
    const { region, urlSuffix } = Stack.of(this);

    // Our own log group: retention is ours to set, and the role can be scoped to it.
    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // An explicit role instead of AWSLambdaBasicExecutionRole, whose log permissions cover
    // every log group in the account.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Callback receiver: write its own logs, put/get transactions, read its API keys',
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      ...functionDefaults,
      entry: props.entry ?? handlerEntry,
      memorySize: functionMemoryMb,
      timeout: functionTimeout,
      role: this.role,
      logGroup: this.logGroup,
      description: 'Receives payment-gateway completion callbacks and records them once',
      environment: {
        TABLE_NAME: props.table.tableName,
        CALLBACK_API_KEY_SECRET_ID: props.secretId,
        HASH_MODE: props.hashMode ?? 'if-present',
        DYNAMODB_TIMEOUT_MS: String(dynamodbTimeoutMs),
        DYNAMODB_MAX_ATTEMPTS: String(dynamodbMaxAttempts),
        POWERTOOLS_SERVICE_NAME: serviceName,
        POWERTOOLS_METRICS_NAMESPACE: metricsNamespace,
        POWERTOOLS_LOG_LEVEL: 'INFO',
      },
    });

    // Data plane, written out instead of `grantReadWriteData` (which adds Scan, Query,
    // BatchWriteItem, UpdateItem, DeleteItem...). Conflict audit records are PutItem too.
    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'PutAndGetTransactions',
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem', 'dynamodb:GetItem'],
        resources: [props.table.tableArn],
      }),
    );
    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'ReadApiKeys',
        effect: Effect.ALLOW,
        actions: ['secretsmanager:GetSecretValue'],
        resources: [props.secretArn],
      }),
    );
    if (props.encryptionKey) {
      // With a customer-managed key, DynamoDB and Secrets Manager decrypt with the caller's
      // permission; only through those two services, never direct use of the key.
      this.function.addToRolePolicy(
        new PolicyStatement({
          sid: 'DecryptThroughDynamoDbAndSecretsManager',
          effect: Effect.ALLOW,
          actions: ['kms:Decrypt'],
          resources: [props.encryptionKey.keyArn],
          conditions: {
            StringEquals: {
              'kms:ViaService': [
                `dynamodb.${region}.${urlSuffix}`,
                `secretsmanager.${region}.${urlSuffix}`,
              ],
            },
          },
        }),
      );
    }

    // Active tracing makes CDK add xray:PutTraceSegments and xray:PutTelemetryRecords on "*".
    // Those two actions do not support resource-level permissions: "*" is the only valid value.
    acknowledgeFinding(
      this.role.node.tryFindChild('DefaultPolicy') ?? this.role,
      'AwsSolutions-IAM5[Resource::*]',
      'Only the X-Ray statement CDK adds for active tracing (xray:PutTraceSegments, ' +
        'xray:PutTelemetryRecords) uses "*": these actions have no resource-level permissions. ' +
        'DynamoDB, Secrets Manager and KMS statements name their single resource.',
    );

    // Synchronous invocation only (API Gateway proxy): the caller gets the error and retries,
    // so there is no asynchronous event that a DLQ or failure destination could keep.
    acknowledgeFinding(
      this.function,
      'Serverless-LambdaDLQ',
      'Invoked synchronously by API Gateway only; failures return to the gateway, which ' +
        'retries. A DLQ applies to asynchronous invocations, which this function never gets.',
    );
  }
}
