import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Transaction } from '../callback/transaction-schema.js';
import { stringifyJson } from '../json/json-text.js';
import { attributes, timeShards } from './table-definition.js';
import type { TransactionRecord } from './transaction-store.js';

/**
 * The DynamoDB item for a record. Numbers go in as `N` with the sender's digits, never through
 * a JavaScript number. One function per item kind, so the layout is written down once.
 */
export type Item = Record<string, AttributeValue>;

/** Separates the parts of a conflict audit key; references cannot contain control characters. */
const keySeparator = '\u001f';

export function transactionItem(record: TransactionRecord): Item {
  return {
    [attributes.reference]: { S: record.transaction.reference },
    record: { S: 'transaction' },
    ...transactionAttributes(record.transaction),
    ...deliveryAttributes(record),
    ...usernameKey(record.transaction.username),
    [attributes.timeShard]: { S: String(timeShard(record.transaction.reference)) },
  };
}

/** DynamoDB refuses an index key that is empty or longer than 2,048 bytes. */
const maxIndexKeyBytes = 2048;

/** The username index key, or nothing where DynamoDB cannot index it (also for corrections). */
export function usernameKey(username: string): Item {
  const indexable = username !== '' && Buffer.byteLength(username, 'utf8') <= maxIndexKeyBytes;
  return indexable ? { [attributes.usernameKey]: { S: username } } : {};
}

/** The audit key of a conflicting delivery: one per reference and distinct content. */
export function conflictKey(reference: string, fingerprint: string): string {
  return [reference, 'conflict', fingerprint].join(keySeparator);
}

/**
 * A conflicting delivery. Its fields sit under `transaction` rather than at the top level, so it
 * stays out of the username and time indexes and cannot be mistaken for the recorded transaction.
 */
export function conflictItem(record: TransactionRecord): Item {
  return {
    [attributes.reference]: { S: conflictKey(record.transaction.reference, record.fingerprint) },
    record: { S: 'conflict' },
    [attributes.conflictOf]: { S: record.transaction.reference },
    transaction: { M: transactionAttributes(record.transaction) },
    ...deliveryAttributes(record),
  };
}

function transactionAttributes(transaction: Transaction): Item {
  const { extra, ...known } = transaction;
  const item: Item = {
    id: { N: known.id },
    username: { S: known.username },
    firstName: { S: known.firstName },
    lastName: { S: known.lastName },
    amount: { N: known.amount },
    currency: { S: known.currency },
    type: { S: known.type },
    status: { S: known.status },
    reference: { S: known.reference },
  };
  if (known.message !== undefined) item.message = { S: known.message };
  if (known.hash !== undefined) item.hash = { S: known.hash };
  // JSON text rather than a map: DynamoDB refuses empty member names and deep nesting in maps,
  // and a gateway's new member must never make a valid callback unstorable.
  if (Object.keys(extra).length > 0) item.extra = { S: stringifyJson(extra) };
  return item;
}

function deliveryAttributes(record: TransactionRecord): Item {
  return {
    rawBody: { S: record.rawBody },
    fingerprint: { S: record.fingerprint },
    [attributes.receivedAt]: { S: record.receivedAt },
    hashResult: { S: record.hashResult },
    keyId: { S: record.keyId },
    requestId: { S: record.requestId },
    sourceIp: { S: record.sourceIp },
  };
}

/**
 * The time-index shard, chosen by the reference so one day's writes spread over
 * {@link timeShards} partitions instead of one hot one. FNV-1a: cheap, stable across runtimes,
 * evenly spread.
 */
export function timeShard(reference: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < reference.length; i++) {
    hash ^= reference.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % timeShards;
}
