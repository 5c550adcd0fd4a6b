import { isJsonObject, parseStrictJson } from '../json/strict-json.js';
import type { PutOutcome } from '../storage/transaction-store.js';
import { fingerprint } from './fingerprint.js';
import { type FieldDeclarations, fieldNames, fieldsVersion } from './transaction-fields.js';
import { declaredMembers } from './transaction-schema.js';

/** What the store returns of the item that already holds a reference. */
export type StoredTransaction = Extract<PutOutcome, { kind: 'exists' }>;

/**
 * Whether a delivery is the stored transaction again (a duplicate) rather than a conflict.
 *
 * An item stored under the current declaration: equal fingerprints decide, as always. An item
 * stored under an earlier one (`fieldsVersion`) is judged by the rules it was stored under, plus
 * what it said of the fields added since: the delivery is fingerprinted over that version's
 * fields only, and each fingerprinted field added since must carry the value the stored item
 * held as an extra member (where it held one; a field the gateway did not send then cannot
 * contradict it, while dropping a value it did send is another transaction).
 *
 * Why not one canonical fingerprint for "`fee` as an extra member" and "`fee` as a field": the
 * fingerprint leaves extra members out on purpose (per-delivery members such as `attempt` must
 * never make a conflict), and a stored fingerprint cannot be recomputed without rereading the
 * item. The item's version and its `extra` text come back with the failed conditional write
 * (dynalite: the one consistent read already made), so this costs nothing on the recorded path
 * and, on a duplicate of an older item, one more hash and a parse of its extra members.
 *
 * Not handled: an item stored by a NEWER declaration than the running one (a rolled-back
 * deployment) is compared by fingerprint alone, so a redelivery carrying a field the running
 * declaration does not know answers 409 until the newer declaration is deployed again.
 */
export function isSameTransaction(
  stored: StoredTransaction,
  delivery: { readonly fingerprint: string; readonly transaction: object },
  fields: FieldDeclarations,
): boolean {
  const version = stored.fieldsVersion ?? 1;
  if (version >= fieldsVersion(fields)) return stored.fingerprint === delivery.fingerprint;
  if (fingerprint(delivery.transaction, fields, version) !== stored.fingerprint) return false;
  const { values: held } = declaredMembers(fields, storedExtra(stored.extra));
  const values = delivery.transaction as Readonly<Record<string, unknown>>;
  return fieldNames(fields, (field) => field.fingerprinted && field.since > version).every(
    (name) => held[name] === undefined || held[name] === values[name],
  );
}

function storedExtra(text: string | undefined) {
  if (text === undefined) return {};
  const { value } = parseStrictJson(text);
  return isJsonObject(value) ? value : {};
}
