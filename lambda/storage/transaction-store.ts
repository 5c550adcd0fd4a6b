import type { TimeBudget } from '../budget/time-budget.js';
import type { FieldDeclarations } from '../callback/transaction-fields.js';
import type { Transaction } from '../callback/transaction-schema.js';

/** How the hash was judged: checked and right, absent or empty (accepted), or not checked at all. */
export type HashResult = 'verified' | 'unverified' | 'not-checked';

/** Everything recorded for one delivery. */
export interface TransactionRecord {
  readonly transaction: Transaction;
  readonly fingerprint: string;
  /** The body exactly as received (after base64 decoding), for audit and re-verification. */
  readonly rawBody: string;
  readonly receivedAt: string;
  readonly hashResult: HashResult;
  /** Which accepted key authenticated the delivery, by id: never the key itself. */
  readonly keyId: string;
  readonly requestId: string;
  readonly sourceIp: string;
  /**
   * The request's headers less credentials, within their caps (refusals/kept-headers.ts); absent
   * where a tool writes records directly, not from a request.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The declaration the transaction was validated under, which says how each field is stored.
   * @default transactionFields
   */
  readonly fields?: FieldDeclarations;
}

export type PutOutcome =
  | { readonly kind: 'created' }
  /** The reference is taken; `fingerprint` is that of the record already stored. */
  | {
      readonly kind: 'exists';
      readonly fingerprint: string;
      /** The stored transaction's members outside the interface, as JSON text; none if absent. */
      readonly extra?: string;
      /** True when an operator already settled this record's content (`npm run settle`). */
      readonly settled?: boolean;
      /** The declaration version the stored item was validated under; absent: 1. */
      readonly fieldsVersion?: number;
    };

/**
 * Storage for recorded transactions, keyed by `reference`. Implementations turn their own
 * failures into `CallbackError`s (store unavailable, item rejected), so the use case never sees
 * a vendor exception.
 */
export interface TransactionStore {
  /**
   * Stores the record unless its reference is already stored; never overwrites. Gives up with a
   * retryable error rather than run past `budget` (tools that have no deadline leave it out).
   */
  putIfAbsent(record: TransactionRecord, budget?: TimeBudget): Promise<PutOutcome>;
  /**
   * Keeps a delivery that conflicts with the stored record, findable by its reference. Keeping the
   * same conflicting content twice leaves one audit record, which counts its deliveries.
   * `settled`: an operator already decided on this content, so keeping it raises no event.
   */
  keepConflict(record: TransactionRecord, budget?: TimeBudget, settled?: boolean): Promise<void>;
}
