/**
 * The time one invocation may spend before it must answer: what Lambda says remains, less a
 * safety margin for writing the answer, the log line and the metrics. Every dependency call on
 * the path runs inside it, so the answer comes before Lambda's deadline, never at it.
 */
export interface TimeBudget {
  /** Milliseconds left, never negative. */
  remainingMs(): number;
  /** Aborts when the budget runs out: handed to every SDK call and every wait. */
  readonly signal: AbortSignal;
}

/** Raised by a wait or a call that the budget cut short, or by an attempt it would not start. */
export class TimeBudgetExhaustedError extends Error {
  override name = 'TimeBudgetExhaustedError';
  constructor(message = 'The time budget of this invocation is spent.', options?: ErrorOptions) {
    super(message, options);
  }
}

export function timeBudget(
  remainingMs: number,
  marginMs: number,
  now: () => number = Date.now,
): TimeBudget {
  const lengthMs = Math.max(0, remainingMs - marginMs);
  const deadline = now() + lengthMs;
  return {
    remainingMs: () => Math.max(0, deadline - now()),
    signal: AbortSignal.timeout(lengthMs),
  };
}

/** The budget of an invocation, from its Lambda context; unbounded where there is none. */
export function invocationBudget(
  context: { getRemainingTimeInMillis?: () => number },
  marginMs: number,
): TimeBudget {
  const remaining = context.getRemainingTimeInMillis?.();
  return remaining === undefined ? unlimitedBudget() : timeBudget(remaining, marginMs);
}

/** For callers with no deadline of their own (tools, tests of the use case alone). */
export function unlimitedBudget(): TimeBudget {
  return { remainingMs: () => Number.POSITIVE_INFINITY, signal: new AbortController().signal };
}

/** `promise`, unless the budget runs out first. */
export async function withinBudget<T>(budget: TimeBudget, promise: Promise<T>): Promise<T> {
  if (budget.signal.aborted) throw new TimeBudgetExhaustedError();
  const { promise: exhausted, reject } = Promise.withResolvers<never>();
  const onAbort = () => reject(new TimeBudgetExhaustedError());
  budget.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([promise, exhausted]);
  } finally {
    budget.signal.removeEventListener('abort', onAbort);
  }
}
