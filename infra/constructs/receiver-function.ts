import { fileURLToPath } from 'node:url';
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { HashMode } from '../../lambda/config/config.js';
import { acknowledgeFinding } from '../nag.js';
import { ServiceFunction } from './service-function.js';

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
 * 512 MB: arm64 CPU scales with memory; enough for a fast cold start of the bundled SDK
 * (bench/ measures it: docs/performance.md).
 */
export const functionTimeout = Duration.seconds(10);
export const functionMemoryMb = 512;

export interface ReceiverFunctionProps {
  readonly table: ITable;
  /** Where refused deliveries are kept (`RefusalsTable`): UpdateItem only. */
  readonly refusalsTable: ITable;
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
  /**
   * The customer-managed key of an existing secret (`existingSecretKeyArn`).
   * @default - the secret's key needs no grant (AWS-managed, or the stack's own key)
   */
  readonly secretKeyArn?: string;
  readonly logRetention: RetentionDays;
  /**
   * New refused bodies kept per minute (`REFUSALS_KEPT_PER_MINUTE`).
   * @default 120 (the function's own default)
   */
  readonly refusalsKeptPerMinute?: number;
  /**
   * Concurrent executions reserved for, and capped at, the receiver.
   * @default - the account's unreserved pool
   */
  readonly reservedConcurrency?: number;
  /**
   * The handler module.
   * @default lambda/receiver.ts
   */
  readonly entry?: string;
}

/** The callback handler: bundled ESM on Node 24 / arm64 with a least-privilege role. */
export class ReceiverFunction extends Construct {
  readonly function: ServiceFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ReceiverFunctionProps) {
    super(scope, id);
    const { region, urlSuffix } = Stack.of(this);

    const built = new ServiceFunction(this, 'Function', {
      entry: props.entry ?? handlerEntry,
      description: 'Receives payment-gateway completion callbacks and records them once',
      roleDescription:
        'Callback receiver: write its own logs, put/get transactions, read its API keys',
      memorySize: functionMemoryMb,
      timeout: functionTimeout,
      logRetention: props.logRetention,
      reservedConcurrentExecutions: props.reservedConcurrency,
      environment: {
        TABLE_NAME: props.table.tableName,
        REFUSALS_TABLE_NAME: props.refusalsTable.tableName,
        CALLBACK_API_KEY_SECRET_ID: props.secretId,
        HASH_MODE: props.hashMode ?? 'if-present',
        DYNAMODB_TIMEOUT_MS: String(dynamodbTimeoutMs),
        DYNAMODB_MAX_ATTEMPTS: String(dynamodbMaxAttempts),
        ...(props.refusalsKeptPerMinute === undefined
          ? {}
          : { REFUSALS_KEPT_PER_MINUTE: String(props.refusalsKeptPerMinute) }),
      },
    });
    this.function = built;
    this.logGroup = built.functionLogGroup;
    this.role = built.executionRole;

    // Data plane, written out instead of `grantReadWriteData` (which adds Scan, Query,
    // BatchWriteItem, UpdateItem, DeleteItem...). Conflict audit records are PutItem too.
    this.function.allow(
      'PutAndGetTransactions',
      ['dynamodb:PutItem', 'dynamodb:GetItem'],
      [props.table.tableArn],
    );
    // A refusal is kept by upserts on its body's digest and on the minute's counter item; the
    // function never reads that table.
    this.function.allow('KeepRefusals', ['dynamodb:UpdateItem'], [props.refusalsTable.tableArn]);
    this.function.allow('ReadApiKeys', ['secretsmanager:GetSecretValue'], [props.secretArn]);
    if (props.encryptionKey) {
      // With a customer-managed key, DynamoDB and Secrets Manager decrypt with the caller's
      // permission; only through those two services, never direct use of the key.
      this.function.allow(
        'DecryptThroughDynamoDbAndSecretsManager',
        ['kms:Decrypt'],
        [props.encryptionKey.keyArn],
        {
          StringEquals: {
            'kms:ViaService': [
              `dynamodb.${region}.${urlSuffix}`,
              `secretsmanager.${region}.${urlSuffix}`,
            ],
          },
        },
      );
    }

    if (props.secretKeyArn) {
      // An existing secret under its own key: Secrets Manager decrypts with the caller's
      // permission, so the function may use that key through Secrets Manager only.
      this.function.allow(
        'DecryptApiKeysThroughSecretsManager',
        ['kms:Decrypt'],
        [props.secretKeyArn],
        {
          StringEquals: { 'kms:ViaService': `secretsmanager.${region}.${urlSuffix}` },
        },
      );
    }

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
