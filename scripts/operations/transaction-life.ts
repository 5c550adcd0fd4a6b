import type { Resolution, Settlement } from '../../lambda/settle/settlement.js';

/**
 * What happens to a transaction after it arrives, as one model every command and the console
 * read: the states, the events that move a transaction between them, and how a state is read
 * off what the table holds. Nothing else derives "open", "settled" or "corrected" on its own.
 *
 * ```
 *                  same content again: duplicate (204), no change
 *                 ┌──────┐
 *                 ▼      │
 *   callback ─► recorded ┴─ other content ─► conflicted ◄─ other content (another conflict)
 *                                               │
 *                        settle --accept stored │ settle --accept received
 *                          ┌────────────────────┴───────────────────┐
 *                          ▼                                        ▼
 *                       settled  (stored content kept)          corrected  (version + 1,
 *                                                                the received content)
 * ```
 *
 * A settled or corrected transaction that receives yet another content is conflicted again.
 * Reconcile compares the report with what the state holds and counts an open conflict as a
 * difference; forwarding publishes `Transaction Recorded` on entering `recorded` and
 * `Transaction Corrected` on entering `corrected`.
 */
export type TransactionState = 'recorded' | 'conflicted' | 'settled' | 'corrected';

/**
 * One conflicting content's state: `open` until an operator decides, then the decision
 * (`received`: it became the stored content; `stored`: refused for good; `superseded`: the
 * content a correction replaced, redelivered). `current` is a content kept as a conflict that is
 * the stored content now, so there is nothing to decide.
 */
export type ConflictState = 'open' | 'current' | Resolution;

/** The events of the diagram, and the state each leads to from every state it applies to. */
export const transitions = {
  callback: { from: [], to: 'recorded' },
  otherContent: {
    from: ['recorded', 'conflicted', 'settled', 'corrected'],
    to: 'conflicted',
  },
  settleStored: { from: ['conflicted'], to: 'settled' },
  settleReceived: { from: ['conflicted'], to: 'corrected' },
} as const satisfies Record<
  string,
  { readonly from: readonly TransactionState[]; readonly to: TransactionState }
>;

/** What the state of one conflict is read from: its fingerprint and the decision on it. */
export interface ConflictFacts {
  readonly fingerprint: string;
  readonly settlement?: Settlement;
}

/** A conflict's state, given the fingerprint of the content stored now. */
export function conflictState(
  conflict: ConflictFacts,
  storedFingerprint: string | undefined,
): ConflictState {
  if (conflict.settlement) return conflict.settlement.resolution;
  return conflict.fingerprint === storedFingerprint ? 'current' : 'open';
}

/** Whether a conflict still waits for a decision: what settle offers and reconcile counts. */
export function isOpen(conflict: ConflictFacts, storedFingerprint: string | undefined): boolean {
  return conflictState(conflict, storedFingerprint) === 'open';
}

/**
 * A transaction's state from its content version and its conflicts: conflicted while any is
 * open; otherwise corrected once a correction made a version after the first, settled when
 * decisions were made without one, recorded when there was nothing to decide.
 */
export function transactionState(
  version: number,
  storedFingerprint: string | undefined,
  conflicts: readonly ConflictFacts[],
): TransactionState {
  if (conflicts.some((conflict) => isOpen(conflict, storedFingerprint))) return 'conflicted';
  if (version > 1) return 'corrected';
  return conflicts.some((conflict) => conflict.settlement) ? 'settled' : 'recorded';
}
