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
 *   which expires (24 h here) and is deleted when anything after its lock fails. That includes
 *   the 409 itself: Powertools' middy middleware deletes the record in `onError` even when the
 *   error was the payload mismatch, so the conflicting delivery sent again is taken as new and
 *   its unconditional `PutCommand` overwrites the recorded transaction, after which the original
 *   content is the one refused (the benchmark's outcome table: new, duplicate, conflict,
 *   conflict again, first content again get 204, 204, 409, 204, 409 here; ours 204, 204, 409,
 *   409, 204);
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
