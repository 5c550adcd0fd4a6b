/**
 * The callback receiver built "the common way", for the benchmark only: never shipped, never
 * imported by lambda/ or infra/. middy + http-json-body-parser, Powertools Idempotency (DynamoDB
 * persistence layer keyed by `reference`), Powertools Parser with a zod schema (plain `zod`
 * import) and Powertools Logger. New and duplicate deliveries get the same outcome as ours
 * (204); a bad key 401, a bad hash 403, a schema failure 422, other content under a recorded
 * reference 409.
 *
 * What it leaves out, compared with lambda/:
 * - exact numbers: `JSON.parse` turns ids beyond 2^53 and amounts like `1050.70` into doubles,
 *   so such values are stored rounded, and the hash over them no longer matches;
 * - strict JSON: duplicate members are silently resolved (last wins), no nesting or size limits,
 *   no UTF-8 or byte-order-mark checks;
 * - hash candidates: one text only (`JSON.stringify`, lowercase `\u` escapes), so senders that
 *   escape in uppercase or hash non-compact text are refused;
 * - the conflict audit: a conflicting delivery is refused but not kept;
 * - a conditional write on the transaction itself: exactly-once rests on the idempotency record,
 *   which expires (24 h here) and is deleted when the handler fails;
 * - the raw body, key id, hash result and time-index shard on the stored item; problem+json;
 *   Secrets Manager keys; metrics.
 */

import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { baselineHandler } from './baseline-handler.js';
import { dynamoDbTransactionWriter } from './transaction-writer.js';

const client = new DynamoDBClient({});

export const handler = baselineHandler({
  keys: (process.env.CALLBACK_API_KEYS ?? '').split(',').map((key) => key.trim()),
  persistenceStore: new DynamoDBPersistenceLayer({
    tableName: process.env.IDEMPOTENCY_TABLE_NAME ?? 'idempotency',
    awsSdkV3Client: client,
  }),
  transactions: dynamoDbTransactionWriter(client, process.env.TABLE_NAME ?? 'transactions'),
  logger: new Logger({ serviceName: 'callback-receiver-baseline' }),
});
