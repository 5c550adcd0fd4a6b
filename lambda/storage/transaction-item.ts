import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  type FieldDeclarations,
  fieldsVersion,
  isNumberKind,
  transactionFields,
} from '../callback/transaction-fields.js';
import { declaredMembers, type Transaction } from '../callback/transaction-schema.js';
import { stringifyJson } from '../json/json-text.js';
import { isJsonObject, type JsonValue, parseStrictJson } from '../json/strict-json.js';
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
    ...transactionAttributes(record.transaction, record.fields),
    ...deliveryAttributes(record),
    ...usernameKey(record.transaction.username),
    [attributes.timeShard]: { S: String(timeShard(record.transaction.reference)) },
  };
}

/** DynamoDB refuses an index key that is empty or longer than 2,048 bytes. */
const maxIndexKeyBytes = 2048;

/**
 * The username index key, or nothing where DynamoDB cannot index it (also for corrections). It
 * is the username in lower case, so `Alice`, `alice` and `ALICE` are one user to the list and the
 * search, as an operator typing a name expects; the item keeps the username as sent.
 */
export function usernameKey(username: string): Item {
  const key = foldedUsername(username);
  const indexable = key !== '' && Buffer.byteLength(key, 'utf8') <= maxIndexKeyBytes;
  return indexable ? { [attributes.usernameKey]: { S: key } } : {};
}

/** Unicode's default lower-case mapping: the same in every runtime and locale. */
export function foldedUsername(username: string): string {
  return username.toLowerCase();
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
    transaction: { M: transactionAttributes(record.transaction, record.fields) },
    ...deliveryAttributes(record),
  };
}

/**
 * The declared fields as their declaration says (exact numbers as `N`, with the canonical digits,
 * never through a JavaScript number; the rest as `S`), then what the declaration does not define.
 */
function transactionAttributes(
  transaction: Transaction,
  fields: FieldDeclarations = transactionFields,
): Item {
  const values = transaction as unknown as Readonly<Record<string, string | undefined>>;
  const item: Item = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = values[name];
    if (value !== undefined) item[name] = isNumberKind(field) ? { N: value } : { S: value };
  }
  const { extra } = transaction;
  // JSON text rather than a map: DynamoDB refuses empty member names and deep nesting in maps,
  // and a gateway's new member must never make a valid callback unstorable.
  if (Object.keys(extra).length > 0) item.extra = { S: stringifyJson(extra) };
  // Absent means 1: items written before versions existed need no rewrite.
  const version = fieldsVersion(fields);
  if (version > 1) item[fieldsVersionAttribute] = { N: String(version) };
  return item;
}

/** The declaration version an item was validated under (see same-transaction.ts). */
export const fieldsVersionAttribute = 'fieldsVersion';

/**
 * A stored transaction's attributes (an item, or a conflict item's `transaction` map) as
 * `fields` reads them: members of `extra` that the declaration defines, stored before it did,
 * become those fields, as they would be stored today; the rest of `extra` stays as it was.
 */
export function readTransactionAttributes(
  stored: Readonly<Item>,
  fields: FieldDeclarations = transactionFields,
): Item {
  const text = stored.extra?.S;
  const parsed = text === undefined ? undefined : parseStrictJson(text).value;
  if (parsed === undefined || !isJsonObject(parsed)) return { ...stored };
  // A field the item already holds is never overwritten by an extra member of the same name.
  const { values, rest } = declaredMembers(fields, parsed);
  const keep: Record<string, JsonValue> = { ...rest };
  const item: Item = { ...stored };
  for (const [name, value] of Object.entries(values)) {
    const field = fields[name];
    if (field === undefined || stored[name] !== undefined) keep[name] = parsed[name] as JsonValue;
    else item[name] = isNumberKind(field) ? { N: value } : { S: value };
  }
  if (Object.keys(keep).length === Object.keys(parsed).length) return item;
  // Members in their stored order, less the ones now read as fields.
  const remaining = Object.keys(parsed).filter((name) => Object.hasOwn(keep, name));
  if (remaining.length > 0) {
    item.extra = {
      S: stringifyJson(Object.fromEntries(remaining.map((n) => [n, keep[n] as JsonValue]))),
    };
  } else delete item.extra;
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
    // JSON text, the form a kept refusal's headers take: one reader serves both.
    ...(record.headers ? { headers: { S: JSON.stringify(record.headers) } } : {}),
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
