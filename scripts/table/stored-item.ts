import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { NumberValueImpl as NumberValue, unmarshall } from '@aws-sdk/util-dynamodb';
import {
  type FieldDeclarations,
  transactionFields,
} from '../../lambda/callback/transaction-fields.js';
import { listAttributesOf } from '../../lambda/storage/table-definition.js';
import { readTransactionAttributes } from '../../lambda/storage/transaction-item.js';
import { exactJson } from '../cli/output/exact-json.js';

/**
 * An item as read back, decoded with `wrapNumbers`: a number stays the exact digits DynamoDB
 * returned (a {@link NumberValue}), so a 19-digit id or a 38-digit amount prints as stored.
 */
export type StoredItem = Record<string, unknown>;

/**
 * Read under `fields` (the real declaration unless given): a field's value that an item stored
 * before the field was declared holds as an extra member is shown as the field, in the item and
 * in a conflict item's `transaction` (see `readTransactionAttributes`).
 */
export function storedItem(
  item: Record<string, AttributeValue>,
  fields: FieldDeclarations = transactionFields,
): StoredItem {
  const read = readTransactionAttributes(item, fields);
  const inner = read.transaction?.M;
  if (inner !== undefined) read.transaction = { M: readTransactionAttributes(inner, fields) };
  return unmarshall(read, { wrapNumbers: true });
}

/** A value as display text: strings as they are, numbers as their exact digits. */
export function displayValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value instanceof NumberValue) return value.value;
  return exactJson(value);
}

/** The transaction's own fields first, in the gateway's order; then what the receiver added. */
const leading = [
  'reference',
  'record',
  ...Object.keys(transactionFields).filter((name) => name !== 'reference'),
  ...['extra', 'conflictOf', 'transaction', 'receivedAt', 'hashResult', 'keyId', 'requestId'],
  ...['sourceIp', 'headers', 'fingerprint', 'rawBody'],
];

export function orderAttributes(item: StoredItem): StoredItem {
  const rank = (name: string) => {
    const index = leading.indexOf(name);
    return index === -1 ? leading.length : index;
  };
  const names = Object.keys(item).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Object.fromEntries(names.map((name) => [name, item[name]]));
}

/** What `list`, `export` and the time and user indexes carry (not the index keys' own copies). */
export function listFieldsOf(fields: FieldDeclarations): string[] {
  return ['reference', 'receivedAt', ...listAttributesOf(fields)];
}

export function listRecord(item: StoredItem, names: readonly string[]): StoredItem {
  return Object.fromEntries(names.map((name) => [name, item[name]]));
}
