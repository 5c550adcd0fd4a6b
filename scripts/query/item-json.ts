import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type Item = Record<string, AttributeValue>;

/**
 * An item as JSON text, written straight from DynamoDB's attribute values: a number goes out as
 * the exact digits DynamoDB returned (`N`), never through a JavaScript number, so a 19-digit id
 * or a 38-digit amount prints as stored. Read it with a parser that keeps big numbers (jq does;
 * `JSON.parse` with a reviver's `context.source` does) to keep them exact downstream.
 */
export function itemJson(item: Item, indent = ''): string {
  return writeMap(orderAttributes(item), indent);
}

export function itemsJson(items: readonly Item[]): string {
  if (items.length === 0) return '[]';
  return `[\n${items.map((item) => `  ${itemJson(item, '  ')}`).join(',\n')}\n]`;
}

/** The transaction's own fields first, in the gateway's order; then what the receiver added. */
const leading = [
  'reference',
  'record',
  'id',
  'username',
  'firstName',
  'lastName',
  'amount',
  'currency',
  'type',
  'status',
  'message',
  'hash',
  'extra',
  'conflictOf',
  'transaction',
  'receivedAt',
  'hashResult',
  'keyId',
  'requestId',
  'sourceIp',
  'fingerprint',
  'receivedShard',
  'rawBody',
];

export function orderAttributes(item: Item): Item {
  const rank = (name: string) => {
    const index = leading.indexOf(name);
    return index === -1 ? leading.length : index;
  };
  const names = Object.keys(item).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Object.fromEntries(names.map((name) => [name, item[name] as AttributeValue]));
}

function writeMap(map: Item, indent: string): string {
  const entries = Object.entries(map);
  if (entries.length === 0) return '{}';
  const inner = `${indent}  `;
  const members = entries.map(
    ([name, value]) => `${inner}${JSON.stringify(name)}: ${writeValue(value, inner)}`,
  );
  return `{\n${members.join(',\n')}\n${indent}}`;
}

function writeValue(value: AttributeValue, indent: string): string {
  if (value.S !== undefined) return JSON.stringify(value.S);
  if (value.N !== undefined) return value.N;
  if (value.BOOL !== undefined) return String(value.BOOL);
  if (value.NULL !== undefined) return 'null';
  if (value.M !== undefined) return writeMap(value.M, indent);
  if (value.L !== undefined)
    return `[${value.L.map((entry) => writeValue(entry, indent)).join(', ')}]`;
  if (value.SS !== undefined)
    return `[${value.SS.map((entry) => JSON.stringify(entry)).join(', ')}]`;
  if (value.NS !== undefined) return `[${value.NS.join(', ')}]`;
  if (value.B !== undefined) return JSON.stringify(Buffer.from(value.B).toString('base64'));
  if (value.BS !== undefined) {
    return `[${value.BS.map((entry) => JSON.stringify(Buffer.from(entry).toString('base64'))).join(', ')}]`;
  }
  return 'null';
}

/** An attribute as display text: strings as they are, numbers as their exact digits. */
export function attributeText(value: AttributeValue | undefined): string {
  if (value === undefined) return '';
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  if (value.BOOL !== undefined) return String(value.BOOL);
  if (value.NULL !== undefined) return 'null';
  return writeValue(value, '').replace(/\s*\n\s*/g, ' ');
}
