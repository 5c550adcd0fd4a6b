import { createHash } from 'node:crypto';
import {
  type FieldDeclarations,
  fieldNames,
  fieldsVersion,
  isNumberKind,
  transactionFields,
} from './transaction-fields.js';

/**
 * The fields whose values make a transaction what it is: those declared `fingerprinted` (all but
 * `hash`: a redelivery signed with a rotated key is still the same transaction), sorted. Members
 * the declaration does not define (a newer version's, or per-delivery ones such as a send time)
 * are stored but never compared, so they cannot turn a genuine redelivery into a conflict.
 */
export function fingerprintedFields(
  fields: FieldDeclarations = transactionFields,
  version = fieldsVersion(fields),
): string[] {
  return fieldNames(fields, (field) => field.fingerprinted && field.since <= version).sort();
}

const realFingerprinted = fingerprintedFields();

/**
 * A SHA-256 over the fingerprinted fields by value: what a delivery *says*, not how it was
 * written. Member order, whitespace, `\u` escapes and number forms (`1.0E7`, `1050.70`) do not
 * change it, since numbers are already canonical. The text is compact JSON with the members
 * sorted and the numbers bare.
 *
 * `version` limits it to the fields declared by then: how a redelivery is compared with an item
 * stored under an earlier declaration (see same-transaction.ts). An absent optional field adds
 * nothing, so a transaction without the newer fields has one fingerprint under every version.
 */
export function fingerprint(
  transaction: object,
  fields: FieldDeclarations = transactionFields,
  version = fieldsVersion(fields),
): string {
  const names =
    fields === transactionFields && version === fieldsVersion(fields)
      ? realFingerprinted
      : fingerprintedFields(fields, version);
  const values = transaction as Readonly<Record<string, unknown>>;
  const members: string[] = [];
  for (const name of names) {
    const value = values[name];
    if (value === undefined) continue;
    const bare = isNumberKind(fields[name] as (typeof fields)[string]);
    members.push(`"${name}":${bare ? value : JSON.stringify(value)}`);
  }
  return createHash('sha256')
    .update(`{${members.join(',')}}`, 'utf8')
    .digest('hex');
}
