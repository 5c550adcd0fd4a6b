import type { DynamoDBRecord } from 'aws-lambda';
import { fingerprint } from '../../lambda/callback/fingerprint.js';
import {
  type TransactionFields,
  transactionFields,
} from '../../lambda/callback/transaction-fields.js';
import { validateTransaction } from '../../lambda/callback/transaction-schema.js';
import { type SerializableValue, stringifyJson } from '../../lambda/json/json-text.js';
import { parseStrictJson } from '../../lambda/json/strict-json.js';
import type { Item } from '../../lambda/storage/transaction-item.js';
import type { TransactionRecord } from '../../lambda/storage/transaction-store.js';

/**
 * Stream records built from the receiver's own item layout (`transactionItem`, `conflictItem`),
 * for the tests that need no engine. The DynamoDB Local test checks the same mapping against
 * records the engine itself produced.
 */

/**
 * What the receiver records for a body, exactly as `receiveCallback` builds it, under a
 * declaration (the real one unless given).
 */
export function recordOf(
  fields: Record<string, SerializableValue>,
  delivery: Partial<Omit<TransactionRecord, 'transaction' | 'fingerprint'>> = {},
  declaration: TransactionFields = transactionFields,
): TransactionRecord {
  const rawBody = delivery.rawBody ?? stringifyJson(fields);
  const validation = validateTransaction(parseStrictJson(rawBody).value, declaration);
  if (!validation.success) throw new Error(`invalid fixture: ${JSON.stringify(validation.errors)}`);
  return {
    transaction: validation.transaction,
    fingerprint: fingerprint(validation.transaction, declaration),
    fields: declaration,
    rawBody,
    receivedAt: '2025-03-14T09:26:53.589Z',
    hashResult: 'verified',
    keyId: 'key-0123456789ab',
    requestId: 'req-stream-test',
    sourceIp: '203.0.113.7',
    ...delivery,
  };
}

let sequence = 100;

/** A Lambda stream record for an item, numbered in stream order. */
export function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  item: Item,
  sequenceNumber = String(++sequence).padStart(21, '0'),
): DynamoDBRecord {
  // The SDK's AttributeValue and the event's are the same JSON for every type the receiver writes.
  const image = JSON.parse(JSON.stringify(item));
  return {
    eventID: `event-${sequenceNumber}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-central-1',
    eventSourceARN:
      'arn:aws:dynamodb:eu-central-1:123456789012:table/transactions/stream/2025-03-14T00:00:00.000',
    dynamodb: {
      ApproximateCreationDateTime: 1741944413,
      Keys: { reference: image.reference },
      ...(eventName === 'REMOVE' ? {} : { NewImage: image }),
      SequenceNumber: sequenceNumber,
      SizeBytes: 512,
      StreamViewType: 'NEW_IMAGE',
    },
  };
}
