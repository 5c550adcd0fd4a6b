import type { TimeBudget } from '../budget/time-budget.js';
import type { FieldError } from '../callback/transaction-schema.js';

/**
 * An authenticated delivery refused for its content (400, 403, 413, 415, 422), kept so that a
 * refused transaction still exists somewhere here: to answer the gateway's questions, and to be
 * resubmitted after a fix. Never an unauthenticated request: those are not stored at all.
 */
export interface RefusalRecord {
  /** SHA-256 of the whole body as received, hex: the same body is kept once. */
  readonly digest: string;
  /** The body's bytes as received (after base64 decoding), whole or, for a 413, the first part. */
  readonly body: Uint8Array;
  /** The size of the whole body in bytes, as received. */
  readonly bodyBytes: number;
  /** The request headers, less the API key and any other credential, within the caps. */
  readonly headers: Readonly<Record<string, string>>;
  /** Headers left out for the caps of refusal-limits.ts (0: all but credentials kept). */
  readonly headersDropped: number;
  readonly status: number;
  /** The problem type's last part, e.g. `invalid-transaction`. */
  readonly problem: string;
  readonly fieldErrors?: readonly FieldError[];
  /** The top-level `reference` and `id` as written, when the body is JSON that has them. */
  readonly reference?: string;
  readonly id?: string;
  readonly receivedAt: Date;
  readonly keyId: string;
  readonly requestId: string;
  readonly sourceIp: string;
}

/**
 * What keeping did: `kept` a new body, `counted` one more delivery of a body already kept, or
 * `not-kept` because the minute's bound on new refusals was reached (refusal-limits.ts).
 */
export type KeepOutcome = 'kept' | 'counted' | 'not-kept';

/**
 * Durable keeping of refusals. Implementations throw `StoreUnavailableError` when they cannot
 * tell: a failed counter is answered like a failed write, never as "over the bound".
 */
export interface RefusalStore {
  /**
   * Keeps the refusal, or, when the same body is already kept, counts one more delivery of it
   * and extends its retention: one item per distinct body, however often it is sent. A new body
   * past the minute's bound is not kept.
   */
  keep(refusal: RefusalRecord, budget?: TimeBudget): Promise<KeepOutcome>;
}
