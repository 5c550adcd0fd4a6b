import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * How an operator settles a conflict (`npm run settle`), written down once for the receiver, the
 * stream consumer and the operator tools. The decision lives on the transaction item itself, so
 * one conditional write records it, and the receiver reads it back with the item it already gets
 * on every duplicate or conflict: a settled content costs the request path no extra request.
 */
export const settlementAttributes = {
  /** Map: conflicting content's fingerprint → the decision on it (see {@link Settlement}). */
  settlements: 'settlements',
  /** The content's version: absent (1) until the first correction, then 2, 3, … */
  version: 'version',
  /** Counts every settle write: the value an operator's write is conditioned on. */
  revision: 'revision',
  /** List: each earlier version, oldest first, with who replaced it, when and why. */
  history: 'history',
  /** How the current version came to be, when an operator accepted it. */
  correction: 'correction',
  /**
   * What the last settle write did: `correction` or `settlement`. The stream consumer publishes
   * `Transaction Corrected` for a MODIFY whose new image says `correction`, and only then: the
   * stream carries new images only, so the write itself has to say what it was.
   */
  lastChange: 'lastChange',
} as const;

/** Attributes the receiver keeps on a conflict item (see `lambda/storage/conflict-update.ts`). */
export const conflictCountAttributes = {
  /** How many deliveries brought this content. */
  deliveries: 'deliveries',
  /** When the latest of them came; `receivedAt` stays the first. */
  lastReceivedAt: 'lastReceivedAt',
  /**
   * Set when the item was first written after its content was already settled (a superseded
   * version delivered again): no `Transaction Conflict` event and no alarm for it.
   */
  afterSettlement: 'afterSettlement',
} as const;

export const lastChanges = { correction: 'correction', settlement: 'settlement' } as const;

/**
 * - `received`: the operator accepted this content; it became the stored transaction.
 * - `stored`: the operator kept the stored transaction; this content stays refused.
 * - `superseded`: the content a correction replaced; a redelivery of it stays refused.
 */
export type Resolution = 'received' | 'stored' | 'superseded';

/** The decision on one content, as kept under `settlements`. */
export interface Settlement {
  readonly resolution: Resolution;
  /** ISO-8601, UTC. */
  readonly settledAt: string;
  /** The operator: an IAM ARN on AWS, the OS user locally. */
  readonly settledBy: string;
  readonly reason: string;
  /** The transaction's version once the decision was written. */
  readonly version: number;
}

/** True when the item (a transaction) holds a decision on the content with `fingerprint`. */
export function isSettled(
  item: Record<string, AttributeValue> | undefined,
  fingerprint: string,
): boolean {
  return item?.[settlementAttributes.settlements]?.M?.[fingerprint] !== undefined;
}
