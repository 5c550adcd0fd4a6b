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
  /**
   * Clears the timer behind {@link signal}: called once the answer is sent, so nothing of the
   * invocation outlives it (a pending timer keeps the signal, its listeners and what they hold
   * alive until it fires). The signal then never aborts; `remainingMs` still counts down.
   */
  release(): void;
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
  const { signal, release } = timeoutSignal(lengthMs);
  return { remainingMs: () => Math.max(0, deadline - now()), signal, release };
}

/**
 * A signal that aborts after `ms` with a `TimeoutError`, as `AbortSignal.timeout` does, but whose
 * timer `release` clears: `AbortSignal.timeout` keeps its timer, and with it the signal, until
 * the time has passed, however early the work ended. `release(reason)` also aborts it at once,
 * with that reason (an attempt cut short by its budget).
 */
export function timeoutSignal(ms: number): {
  signal: AbortSignal;
  release: (abortWith?: unknown) => void;
} {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
  }, ms);
  // Like AbortSignal.timeout's, it never holds the process open on its own.
  timer.unref();
  return {
    signal: controller.signal,
    release: (abortWith?: unknown) => {
      clearTimeout(timer);
      if (abortWith !== undefined) controller.abort(abortWith);
    },
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
  return {
    remainingMs: () => Number.POSITIVE_INFINITY,
    signal: new AbortController().signal,
    release: () => {},
  };
}

/**
 * Waits `ms`. A plain timer rather than `node:timers/promises`, which the receiver would load at
 * every cold start (about 1 ms of CPU) for this one wait between attempts.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
