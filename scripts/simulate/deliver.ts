import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** The first backoff ceiling; it doubles per attempt, up to `maxBackoffMs`. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** Per attempt; a timed-out attempt is retried like a network error. */
  readonly timeoutMs: number;
}

export interface Attempt {
  /** HTTP status, or undefined when no response came (network error, timeout). */
  readonly status?: number;
  readonly outcome?: string;
  readonly error?: string;
  readonly latencyMs: number;
}

export interface DeliveryResult {
  readonly attempts: readonly Attempt[];
  /** The last attempt's status; undefined when every attempt failed without a response. */
  readonly status?: number;
  /** `x-callback-outcome` of a 2xx: `recorded` or `duplicate`. */
  readonly outcome?: string;
  /** The problem type of a refusal, e.g. `urn:callback-receiver:problem:hash-mismatch`. */
  readonly problem?: string;
}

/**
 * POSTs one callback the way a payment gateway does: retry what may succeed later (no response,
 * 408, 429, 5xx) with exponential backoff and full jitter, honouring `Retry-After`; stop at a
 * 2xx or at any other 4xx, which says this body will never be accepted as it is.
 */
export async function deliver(
  url: string,
  key: string,
  body: string,
  policy: RetryPolicy,
  onRetry: () => void = () => {},
): Promise<DeliveryResult> {
  const attempts: Attempt[] = [];
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    let response: Response | undefined;
    let text = '';
    let error: string | undefined;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body,
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
      text = await response.text();
    } catch (caught) {
      error = describeFailure(caught);
    }
    const latencyMs = performance.now() - started;
    const outcome = response?.headers.get('x-callback-outcome') ?? undefined;
    attempts.push({
      latencyMs,
      ...(response ? { status: response.status } : {}),
      ...(outcome ? { outcome } : {}),
      ...(error ? { error } : {}),
    });

    if (!isRetryable(response?.status) || attempt >= policy.maxAttempts) {
      return {
        attempts,
        ...(response ? { status: response.status } : {}),
        ...(outcome ? { outcome } : {}),
        ...problemType(response, text),
      };
    }
    onRetry();
    await sleep(backoff(attempt, policy, response?.headers.get('retry-after')));
  }
}

/** No response, request timeout, throttling, or a server-side failure. */
export function isRetryable(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

/** Full jitter: uniform in [0, ceiling], ceiling doubling per attempt; never below Retry-After. */
export function backoff(attempt: number, policy: RetryPolicy, retryAfter?: string | null): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (attempt - 1));
  const jittered = Math.random() * ceiling;
  const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : 0;
  return Math.max(jittered, Math.min(seconds * 1000, policy.maxBackoffMs));
}

function problemType(response: Response | undefined, text: string): { problem?: string } {
  if (!response || response.ok) return {};
  try {
    const type = (JSON.parse(text) as { type?: unknown }).type;
    return typeof type === 'string' ? { problem: type } : {};
  } catch {
    return {};
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timeout';
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? error.message;
  }
  return String(error);
}
