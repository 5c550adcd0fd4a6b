import type { Outcome } from '../observability/metric-names.js';
import type { FieldError } from './transaction-schema.js';

/**
 * Every way a callback can be refused, one class each. A class carries its HTTP status and the
 * metric outcome it counts as; `http/problem-response.ts` is the one place that turns them into
 * responses. Messages are written for the gateway's integrators and never contain a secret, a
 * name or the body.
 */
export type RefusalOutcome = Exclude<Outcome, 'Recorded' | 'Duplicate'>;

export abstract class CallbackError extends Error {
  abstract readonly status: number;
  /** Last part of the problem type URI, e.g. `hash-mismatch`. */
  abstract readonly problem: string;
  abstract readonly title: string;
  abstract readonly outcome: RefusalOutcome;
  readonly fieldErrors?: readonly FieldError[];
  /** The validated reference, once known: for logs, never for the response. */
  reference?: string;

  constructor(message?: string, options?: ErrorOptions) {
    // A refusal is an answer, not a fault: its stack is never logged or returned (a cause keeps
    // its own), and capturing one costs about 9 µs, a tenth of a whole callback's CPU.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, options);
    Error.stackTraceLimit = stackTraceLimit;
  }
}

export class UnauthorizedError extends CallbackError {
  override name = 'UnauthorizedError';
  readonly status = 401;
  readonly problem = 'unauthorized';
  readonly title = 'Missing or unknown API key';
  readonly outcome = 'Unauthorized';
  constructor(options?: ErrorOptions) {
    super('The x-api-key header is missing or does not match an accepted key.', options);
  }
}

export class PayloadTooLargeError extends CallbackError {
  override name = 'PayloadTooLargeError';
  readonly status = 413;
  readonly problem = 'payload-too-large';
  readonly title = 'Body too large';
  readonly outcome = 'Invalid';
  constructor(limit: number, options?: ErrorOptions) {
    super(`The body is larger than ${limit} bytes.`, options);
  }
}

export class UnsupportedMediaTypeError extends CallbackError {
  override name = 'UnsupportedMediaTypeError';
  readonly status = 415;
  readonly problem = 'unsupported-media-type';
  readonly title = 'Body is not JSON';
  readonly outcome = 'Invalid';
  constructor(options?: ErrorOptions) {
    super('Send the callback with Content-Type: application/json.', options);
  }
}

export class MalformedJsonError extends CallbackError {
  override name = 'MalformedJsonError';
  readonly status = 400;
  readonly problem = 'malformed-json';
  readonly title = 'Body is not valid JSON';
  readonly outcome = 'Invalid';
}

/** The receiver requires a hash (`HASH_MODE=required`) and the body carries none, or an empty one. */
export class HashMissingError extends CallbackError {
  override name = 'HashMissingError';
  readonly status = 403;
  readonly problem = 'hash-missing';
  readonly title = 'Hash is required';
  readonly outcome = 'HashRejected';
  constructor() {
    super(
      'This receiver requires a hash; the body carries none. Put the hash in the "hash" member.',
    );
  }
}

/** The body carries a hash that does not verify against the body and any accepted key. */
export class HashMismatchError extends CallbackError {
  override name = 'HashMismatchError';
  readonly status = 403;
  readonly problem = 'hash-mismatch';
  readonly title = 'Hash does not verify';
  readonly outcome = 'HashRejected';
}

export class ValidationError extends CallbackError {
  override name = 'ValidationError';
  readonly status = 422;
  readonly problem = 'invalid-transaction';
  readonly title = 'Transaction fails validation';
  readonly outcome = 'Invalid';
  override readonly fieldErrors: readonly FieldError[];
  constructor(fieldErrors: readonly FieldError[], options?: ErrorOptions) {
    super(`Invalid fields: ${fieldErrors.map((error) => error.field).join(', ')}.`, options);
    this.fieldErrors = fieldErrors;
  }
}

export class ConflictError extends CallbackError {
  override name = 'ConflictError';
  readonly status = 409;
  readonly problem = 'reference-conflict';
  readonly title = 'Reference already recorded with different content';
  /** `SettledConflict`: content an operator already settled, counted apart and not alarmed. */
  readonly outcome: 'Conflict' | 'SettledConflict';
  constructor(options?: ErrorOptions & { readonly settled?: boolean }) {
    super(
      'A transaction with this reference is already recorded with different content. ' +
        'The stored record is unchanged; this delivery was kept for audit.',
      options,
    );
    this.outcome = options?.settled ? 'SettledConflict' : 'Conflict';
  }
}

/**
 * A refusal the sender should retry: nothing was recorded, and the same delivery later will be
 * judged afresh. Answered 503 with `Retry-After`.
 */
export abstract class RetryableError extends CallbackError {
  readonly status = 503;
  /** Seconds the sender should wait before retrying. */
  readonly retryAfterSeconds = 1;
}

/** DynamoDB could not be reached in time, or refused for a reason that passes (throttling, 5xx). */
export class StoreUnavailableError extends RetryableError {
  override name = 'StoreUnavailableError';
  readonly problem = 'store-unavailable';
  readonly title = 'Temporarily unable to record the callback';
  readonly outcome = 'StoreUnavailable';
  constructor(options?: ErrorOptions) {
    super('The callback was not recorded; retry later.', options);
  }
}

/** The accepted API keys could not be read, so the presented key cannot be judged either way. */
export class KeysUnavailableError extends RetryableError {
  override name = 'KeysUnavailableError';
  readonly problem = 'keys-unavailable';
  readonly title = 'Temporarily unable to check the API key';
  readonly outcome = 'KeysUnavailable';
  constructor(options?: ErrorOptions) {
    super(
      'The API key could not be checked and the callback was not recorded; retry later.',
      options,
    );
  }
}

/**
 * DynamoDB refused the item itself (a `ValidationException`, an item over 400 KB): not an outage,
 * so retrying the same delivery will not help. Answered 500 and counted apart, so an operator sees it.
 */
export type ItemRejectionReason = 'item-too-large' | 'invalid-item';

export class ItemRejectedError extends CallbackError {
  override name = 'ItemRejectedError';
  readonly status = 500;
  readonly problem = 'item-rejected';
  readonly title = 'The callback could not be stored';
  readonly outcome = 'ItemRejected';
  /** Why, in words that quote nothing of the item: for the log, never the response. */
  readonly reason: ItemRejectionReason;
  constructor(reason: ItemRejectionReason, options?: ErrorOptions) {
    super(
      'The store refused this callback; it was not recorded. Its operator is alerted.',
      options,
    );
    this.reason = reason;
  }
}
