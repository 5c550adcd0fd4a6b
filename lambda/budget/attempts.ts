import { isRetryable } from './retryable.js';
import { sleep, type TimeBudget, TimeBudgetExhaustedError, timeoutSignal } from './time-budget.js';

export interface AttemptOptions {
  /** How long one attempt may take; it is aborted then. */
  readonly attemptTimeoutMs: number;
  readonly maxAttempts: number;
  /** Wait before attempt `n + 1`. @default full jitter over 50 ms × 2^(n - 1), at most 1 s */
  readonly backoffMs?: (attempt: number) => number;
}

/**
 * SDK client settings for the clients {@link attempt} drives: one attempt per call, aborted at
 * `timeoutMs` (the endpoint comes from the SDK's own `AWS_ENDPOINT_URL_*` when set).
 */
export function oneAttemptPerCall(timeoutMs: number) {
  return {
    maxAttempts: 1,
    requestHandler: {
      connectionTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      // Without it the SDK only logs a warning when requestTimeout passes and keeps waiting.
      throwOnRequestTimeout: true,
    },
  };
}

/**
 * Calls `call` until it succeeds, fails for good, or runs out of attempts or budget. Each attempt
 * gets a signal that aborts at its own timeout or at the budget's end, whichever comes first,
 * and an attempt starts only if the budget can hold all of it: an attempt that could not finish
 * would only hold the answer back, and a write it sent might land after the answer.
 *
 * The SDK clients make one attempt per call (`maxAttempts: 1`): the retries are here, where the
 * budget is known.
 */
export async function attempt<T>(
  budget: TimeBudget,
  options: AttemptOptions,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  let lastError: unknown;
  for (let number = 1; number <= options.maxAttempts; number++) {
    if (number > 1) {
      const wait = backoffMs(number - 1);
      if (budget.remainingMs() < wait + options.attemptTimeoutMs) break;
      await sleep(wait);
    }
    if (budget.remainingMs() < options.attemptTimeoutMs) break;
    try {
      return await withAttemptSignal(budget, options.attemptTimeoutMs, call);
    } catch (error) {
      if (!isRetryable(error)) throw error;
      lastError = error;
    }
  }
  throw new TimeBudgetExhaustedError(
    lastError === undefined
      ? 'No attempt could finish in the time left.'
      : 'The dependency kept failing until no further attempt could finish in time.',
    { cause: lastError },
  );
}

/**
 * Runs one attempt with a signal that aborts at the attempt's own timeout or at the budget's end,
 * whichever comes first. When the attempt settles its timer is cleared and its listener leaves
 * the budget's signal, so a finished attempt holds nothing: `AbortSignal.any` with
 * `AbortSignal.timeout` kept both alive until the timeout had passed.
 */
export async function withAttemptSignal<T>(
  budget: TimeBudget,
  attemptTimeoutMs: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { signal, release } = timeoutSignal(attemptTimeoutMs);
  const onBudgetEnd = () => release(budget.signal.reason);
  if (budget.signal.aborted) onBudgetEnd();
  else budget.signal.addEventListener('abort', onBudgetEnd, { once: true });
  try {
    return await call(signal);
  } finally {
    release();
    budget.signal.removeEventListener('abort', onBudgetEnd);
  }
}

function defaultBackoffMs(attempt: number): number {
  return Math.random() * Math.min(1000, 50 * 2 ** (attempt - 1));
}
