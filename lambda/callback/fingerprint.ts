import { createHash } from 'node:crypto';
import { JsonNumber } from '../json/json-number.js';
import type { JsonValue } from '../json/strict-json.js';
import type { Transaction } from './transaction-schema.js';

/**
 * A SHA-256 over a canonical form of the validated transaction: what a delivery *says*, not how
 * it was written. Member order, whitespace, `\u` escapes and trailing zeros in a fraction do not
 * change it; the `hash` member does not take part, since a redelivery signed with a rotated key
 * is still the same transaction.
 */
export function fingerprint(transaction: Transaction): string {
  const { hash: _hash, extra, ...known } = transaction;
  const canonical = canonicalJson({
    ...extra,
    ...known,
    id: new JsonNumber(known.id),
    amount: new JsonNumber(known.amount),
  });
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

function canonicalJson(value: JsonValue | undefined): string {
  if (value instanceof JsonNumber) return normalizeNumber(value.source);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .filter((name) => value[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(value[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `1050.70` and `1050.7` are one amount; exponent forms are compared as written. */
function normalizeNumber(source: string): string {
  if (!/^-?\d+\.\d+$/.test(source)) return source.toLowerCase();
  const trimmed = source.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}
