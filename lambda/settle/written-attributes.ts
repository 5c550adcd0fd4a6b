import { type FieldDeclarations, transactionFields } from '../callback/transaction-fields.js';
import { refusalsTable } from '../refusals/refusals-table.js';
import { attributes } from '../storage/table-definition.js';
import { fieldsVersionAttribute } from '../storage/transaction-item.js';
import { settlementAttributes } from './settlement.js';

/**
 * The attributes that hold a transaction's content under a declaration: its fields, `extra` (the
 * members outside it) and `fieldsVersion`, the declaration version the content was validated and
 * fingerprinted under. The version travels with the content: a correction that takes a newer
 * content without it would leave a fingerprint the receiver reads by the wrong rules, and the
 * gateway's redelivery of the accepted content would be a 409. The key is never rewritten.
 */
export function contentAttributesOf(fields: FieldDeclarations): readonly string[] {
  return [...Object.keys(fields), 'extra', fieldsVersionAttribute].filter(
    (name) => name !== attributes.reference,
  );
}

/** {@link contentAttributesOf} the product's declaration. */
export const contentAttributes: readonly string[] = contentAttributesOf(transactionFields);

/** Where and how the current content was delivered: replaced with it by a correction. */
export const deliveryAttributes = [
  'rawBody',
  'fingerprint',
  'hashResult',
  'keyId',
  'requestId',
  'sourceIp',
  'headers',
] as const;

/**
 * Every attribute a settle write may name, the key included: the operators' IAM policy allows
 * UpdateItem on these and no others (`dynamodb:Attributes`), so the policy and the write cannot
 * drift apart. `record`, `receivedAt` and `conflictOf` are not among them.
 */
export const settleWrittenAttributes: readonly string[] = [
  attributes.reference,
  ...contentAttributes,
  ...deliveryAttributes,
  attributes.usernameKey,
  attributes.timeShard,
  ...Object.values(settlementAttributes),
];

/** The attribute of a kept refusal that says it was dealt with. */
export const resolutionAttribute = 'resolution';

/**
 * Every attribute a refusal's resolution writes (scripts/operations/refusals/refusal-resolution.ts:
 * the key, the shard its condition checks, the resolution): the operators' IAM policy allows
 * UpdateItem on the refusals table naming these and no others, so the write and the policy change
 * together.
 */
export const resolutionWrittenAttributes: readonly string[] = [
  refusalsTable.partitionKey,
  refusalsTable.listShard,
  resolutionAttribute,
];
