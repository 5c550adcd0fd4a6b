/**
 * The callback receiver built "the common way", for the benchmark only (never shipped): middy +
 * http-json-body-parser, Powertools Idempotency keyed by `reference`, Parser with a zod schema,
 * Logger. New and duplicate deliveries get ours' 204; a bad key 401, bad hash 403, schema failure
 * 422, other content under a recorded reference 409. What it leaves out, compared with lambda/:
 * - exact numbers: `JSON.parse` rounds ids beyond 2^53 and amounts like `1050.70`, so the hash
 *   over them no longer matches; strict JSON (duplicate members, limits, UTF-8 checks);
 * - hash candidates: one text only, so senders escaping in uppercase are refused;
 * - a conditional write on the transaction: exactly-once rests on the idempotency record, which
 *   expires and is deleted when anything after its lock fails, the 409 included. So the
 *   conflicting delivery sent again is taken as new and overwrites the recorded transaction
 *   (the outcome table of `npm run bench`: 204, 204, 409, 204, 409 here; ours 204, 204, 409,
 *   409, 204);
 * - the conflict audit, kept refusals, raw body, key id, time-index shard, problem+json, Secrets
 *   Manager keys, metrics.
 */
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { baselineHandler, dynamoDbTransactionWriter } from './baseline-handler.js';

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
