import { createHash } from 'node:crypto';
import type { Transaction } from './transaction-schema.js';

/**
 * The fields whose values make a transaction what it is: the published interface's fields, less
 * `hash` (a redelivery signed with a rotated key is still the same transaction). Members the
 * interface does not define (a newer version's, or per-delivery ones such as a send time) are
 * stored but never compared, so they cannot turn a genuine redelivery into a conflict.
 */
export const comparedFields = [
  'amount',
  'currency',
  'firstName',
  'id',
  'lastName',
  'message',
  'reference',
  'status',
  'type',
  'username',
] as const satisfies readonly (keyof Transaction)[];

const numberFields = new Set<string>(['amount', 'id']);

/**
 * A SHA-256 over the compared fields by value: what a delivery *says*, not how it was written.
 * Member order, whitespace, `\u` escapes and number forms (`1.0E7`, `1050.70`) do not change it,
 * since `id` and `amount` are already canonical. The text is compact JSON with the members sorted
 * and the numbers bare, the same text earlier versions hashed for a transaction without extra
 * members, so fingerprints already stored still match.
 */
export function fingerprint(transaction: Transaction): string {
  const members: string[] = [];
  for (const name of comparedFields) {
    const value = transaction[name];
    if (value === undefined) continue;
    members.push(`"${name}":${numberFields.has(name) ? value : JSON.stringify(value)}`);
  }
  return createHash('sha256')
    .update(`{${members.join(',')}}`, 'utf8')
    .digest('hex');
}
