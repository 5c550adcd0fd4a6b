import type { EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { settlementAttributes } from '../settle/settlement.js';
import { UnpublishableRecordError } from './errors.js';
import { type ImageObject, type ImageValue, withExtraDecoded } from './stream-image.js';
import { type detailTypes, transactionCompletedDetailSchema } from './transaction-event.js';

/**
 * `Transaction Corrected`: an operator accepted a conflicting delivery's content (`npm run
 * settle -- <reference> --accept received`), so the transaction consumers were handed in
 * `Transaction Completed` now says something else. `before` and `after` are whole versions in
 * the `Transaction Completed` shape, so a consumer can reverse one and apply the other. Who
 * settled and why stay in the table's history: free text and a person's IAM ARN do not belong
 * on a bus every subscriber reads.
 */
export const transactionCorrectedDetailSchema = z.object({
  reference: z.string().check(z.minLength(1)),
  /** The version `after` is: 2 for the first correction. With `reference`, the dedupe key. */
  version: z.int().check(z.gte(2)),
  /** When the operator settled (ISO-8601, UTC). */
  correctedAt: z.iso.datetime(),
  before: transactionCompletedDetailSchema,
  after: transactionCompletedDetailSchema,
});

export type TransactionCorrectedDetail = z.output<typeof transactionCorrectedDetailSchema>;
export type TransactionCorrectedEvent = EventBridgeEvent<
  typeof detailTypes.corrected,
  TransactionCorrectedDetail
>;

/**
 * The correction a transaction item's new image records: the version before is the last entry
 * of its history, the version after is the item itself. The stream carries new images only, so
 * both come from the one image the correction wrote.
 */
export function correctedDetail(item: ImageObject): TransactionCorrectedDetail {
  const history = item[settlementAttributes.history];
  const correction = item[settlementAttributes.correction];
  const before = Array.isArray(history) ? history.at(-1) : undefined;
  if (!isObject(before) || !isObject(correction) || !isObject(before.transaction)) {
    throw new UnpublishableRecordError('The corrected item has no history or correction');
  }
  const detail = {
    reference: item.reference,
    version: Number(item[settlementAttributes.version]),
    correctedAt: correction.settledAt,
    before: version(before.transaction, before, before.deliveredAt),
    after: version(item, item, correction.deliveredAt),
  };
  const result = z.safeParse(transactionCorrectedDetailSchema, detail);
  if (result.success) return result.data;
  throw new UnpublishableRecordError(
    'The corrected item is not a valid correction',
    result.error.issues.map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`),
  );
}

/** One version in the `Transaction Completed` shape: its fields, digest, delivery and verdict. */
function version(fields: ImageObject, delivery: ImageObject, deliveredAt: ImageValue | undefined) {
  return {
    ...withExtraDecoded(fields),
    fingerprint: delivery.fingerprint ?? null,
    receivedAt: deliveredAt ?? null,
    hashResult: delivery.hashResult ?? null,
  };
}

function isObject(value: ImageValue | undefined): value is ImageObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
