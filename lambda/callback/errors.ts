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

/**
 * A refusal the sender should retry: nothing was recorded, and the same delivery later will be
 * judged afresh. Answered 503 with `Retry-After`.
 */
export abstract class RetryableError extends CallbackError {
  /** Seconds the sender should wait before retrying. */
  readonly retryAfterSeconds = 1;
}

/** What a kind of refusal answers: each class below states one, and only that. */
interface RefusalKind {
  /** The class's name, as logs show it. */
  readonly name: string;
  readonly status: number;
  readonly problem: string;
  readonly title: string;
  readonly outcome: RefusalOutcome;
  /** Its message when it says the same every time; the others are given theirs when thrown. */
  readonly message?: string;
}

/**
 * The class of one kind of refusal, made from its declaration. Its constructor takes the error
 * options first, so a refusal that always says the same is thrown as `new X()` or
 * `new X({ cause })`; a class whose message varies passes it as the second argument.
 */
function refusal(kind: RefusalKind, Base: typeof CallbackError = CallbackError) {
  return class extends Base {
    override name = kind.name;
    readonly status = kind.status;
    readonly problem = kind.problem;
    readonly title = kind.title;
    readonly outcome: RefusalOutcome = kind.outcome;
    constructor(options?: ErrorOptions, message = kind.message) {
      super(message, options);
    }
  };
}

export class UnauthorizedError extends refusal({
  name: 'UnauthorizedError',
  status: 401,
  problem: 'unauthorized',
  title: 'Missing or unknown API key',
  outcome: 'Unauthorized',
  message: 'The x-api-key header is missing or does not match an accepted key.',
}) {}

export class PayloadTooLargeError extends refusal({
  name: 'PayloadTooLargeError',
  status: 413,
  problem: 'payload-too-large',
  title: 'Body too large',
  outcome: 'Invalid',
}) {
  constructor(limit: number, options?: ErrorOptions) {
    super(options, `The body is larger than ${limit} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends refusal({
  name: 'UnsupportedMediaTypeError',
  status: 415,
  problem: 'unsupported-media-type',
  title: 'Body is not JSON',
  outcome: 'Invalid',
  message: 'Send the callback with Content-Type: application/json.',
}) {}

export class MalformedJsonError extends refusal({
  name: 'MalformedJsonError',
  status: 400,
  problem: 'malformed-json',
  title: 'Body is not valid JSON',
  outcome: 'Invalid',
}) {
  constructor(message: string, options?: ErrorOptions) {
    super(options, message);
  }
}

/** The receiver requires a hash (`HASH_MODE=required`) and the body carries none, or an empty one. */
export class HashMissingError extends refusal({
  name: 'HashMissingError',
  status: 403,
  problem: 'hash-missing',
  title: 'Hash is required',
  outcome: 'HashRejected',
  message:
    'This receiver requires a hash; the body carries none. Put the hash in the "hash" member.',
}) {}

/** The body carries a hash that does not verify against the body and any accepted key. */
export class HashMismatchError extends refusal({
  name: 'HashMismatchError',
  status: 403,
  problem: 'hash-mismatch',
  title: 'Hash does not verify',
  outcome: 'HashRejected',
}) {
  constructor(message: string, options?: ErrorOptions) {
    super(options, message);
  }
}

export class ValidationError extends refusal({
  name: 'ValidationError',
  status: 422,
  problem: 'invalid-transaction',
  title: 'Transaction fails validation',
  outcome: 'Invalid',
}) {
  override readonly fieldErrors: readonly FieldError[];
  constructor(fieldErrors: readonly FieldError[], options?: ErrorOptions) {
    super(options, `Invalid fields: ${fieldErrors.map((error) => error.field).join(', ')}.`);
    this.fieldErrors = fieldErrors;
  }
}

export class ConflictError extends refusal({
  name: 'ConflictError',
  status: 409,
  problem: 'reference-conflict',
  title: 'Reference already recorded with different content',
  outcome: 'Conflict',
  message:
    'A transaction with this reference is already recorded with different content. ' +
    'The stored record is unchanged; this delivery was kept for audit.',
}) {
  /** `SettledConflict`: content an operator already settled, counted apart and not alarmed. */
  override readonly outcome: 'Conflict' | 'SettledConflict';
  constructor(options?: ErrorOptions & { readonly settled?: boolean }) {
    super(options);
    this.outcome = options?.settled ? 'SettledConflict' : 'Conflict';
  }
}

/** DynamoDB could not be reached in time, or refused for a reason that passes (throttling, 5xx). */
export class StoreUnavailableError extends refusal(
  {
    name: 'StoreUnavailableError',
    status: 503,
    problem: 'store-unavailable',
    title: 'Temporarily unable to record the callback',
    outcome: 'StoreUnavailable',
    message: 'The callback was not recorded; retry later.',
  },
  RetryableError,
) {}

/** The accepted API keys could not be read, so the presented key cannot be judged either way. */
export class KeysUnavailableError extends refusal(
  {
    name: 'KeysUnavailableError',
    status: 503,
    problem: 'keys-unavailable',
    title: 'Temporarily unable to check the API key',
    outcome: 'KeysUnavailable',
    message: 'The API key could not be checked and the callback was not recorded; retry later.',
  },
  RetryableError,
) {}

/**
 * DynamoDB refused the item itself (a `ValidationException`, an item over 400 KB): not an outage,
 * so retrying the same delivery will not help. Answered 500 and counted apart, so an operator sees it.
 */
export type ItemRejectionReason = 'item-too-large' | 'invalid-item';

export class ItemRejectedError extends refusal({
  name: 'ItemRejectedError',
  status: 500,
  problem: 'item-rejected',
  title: 'The callback could not be stored',
  outcome: 'ItemRejected',
  message: 'The store refused this callback; it was not recorded. Its operator is alerted.',
}) {
  /** Why, in words that quote nothing of the item: for the log, never the response. */
  readonly reason: ItemRejectionReason;
  constructor(reason: ItemRejectionReason, options?: ErrorOptions) {
    super(options);
    this.reason = reason;
  }
}
