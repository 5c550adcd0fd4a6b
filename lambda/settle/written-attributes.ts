import { transactionFields } from '../callback/transaction-fields.js';
import { attributes } from '../storage/table-definition.js';
import { settlementAttributes } from './settlement.js';

/**
 * The attributes that hold a transaction's content, from the receiver's schema (plus `extra`,
 * the members outside it). The key, `reference`, is never rewritten.
 */
export const contentAttributes: readonly string[] = [
  ...Object.keys(transactionFields),
  'extra',
].filter((name) => name !== attributes.reference);

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
