import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import { explainAnswer, explainNetworkFailure } from './delivery-failure.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** The first backoff; it doubles per attempt (randomized up to twice), up to `maxBackoffMs`. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** Per attempt; a timed-out attempt is retried like a network error. */
  readonly timeoutMs: number;
}

export interface DeliveryResult {
  readonly attempts: readonly { status?: number; error?: string; latencyMs: number }[];
  /** The last attempt's; undefined when every attempt failed without a response. */
  readonly status?: number;
  /** `x-callback-outcome` of a 2xx: `recorded` or `duplicate`. */
  readonly outcome?: string;
  /** The problem type of a refusal, e.g. `urn:callback-receiver:problem:hash-mismatch`. */
  readonly problem?: string;
  /** Why the last attempt was not acknowledged, and what to do, in one line. */
  readonly reason?: string;
}

/** An answer (or its absence) worth another attempt. */
class RetryableAnswer extends Error {
  override name = 'RetryableAnswer';
  constructor(
    readonly result: DeliveryResult,
    readonly retryAfterMs = 0,
  ) {
    super(result.reason);
  }
}

/**
 * POSTs one callback the way a payment gateway does: retry what may succeed later (no response,
 * 408, 429, 5xx) with exponential backoff (p-retry), never sooner than `Retry-After` asks; stop
 * at a 2xx or at any other 4xx, which says this body will never be accepted as it is.
 */
export async function deliver(
  url: string,
  key: string,
  body: string,
  policy: RetryPolicy,
  onRetry: () => void = () => {},
): Promise<DeliveryResult> {
  const attempts: DeliveryResult['attempts'][number][] = [];
  const attempt = async (): Promise<DeliveryResult> => {
    const started = performance.now();
    let response: Response;
    let text: string;
    // A controller whose timer is cleared once the answer is read: AbortSignal.timeout() would
    // keep a timer per attempt alive for the whole timeout, and the process with it.
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException('The request timed out', 'TimeoutError')),
      policy.timeoutMs,
    );
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body,
        signal: timeout.signal,
      });
      text = await response.text();
    } catch (error) {
      const reason = explainNetworkFailure(error, url, policy.timeoutMs);
      attempts.push({ latencyMs: performance.now() - started, error: reason });
      throw new RetryableAnswer({ attempts, reason });
    } finally {
      clearTimeout(timer);
    }
    const { status } = response;
    const outcome = response.headers.get('x-callback-outcome') ?? undefined;
    attempts.push({ latencyMs: performance.now() - started, status });
    const result = {
      attempts,
      status,
      outcome,
      ...(!response.ok && explainAnswer(response, text)),
    };
    if (!isRetryable(status)) return result;
    throw new RetryableAnswer(result, retryAfterMs(response.headers.get('retry-after')));
  };

  try {
    return await pRetry(attempt, {
      retries: policy.maxAttempts - 1,
      minTimeout: policy.backoffMs,
      maxTimeout: policy.maxBackoffMs,
      factor: 2,
      randomize: true,
      shouldRetry: ({ error }) => error instanceof RetryableAnswer,
      // p-retry waits `retryDelay` after this returns: make up the rest of Retry-After.
      onFailedAttempt: async ({ error, retriesLeft, retryDelay }) => {
        if (!(error instanceof RetryableAnswer) || retriesLeft === 0) return;
        onRetry();
        const wanted = Math.min(error.retryAfterMs, policy.maxBackoffMs);
        if (wanted > retryDelay) await sleep(wanted - retryDelay);
      },
    });
  } catch (error) {
    if (error instanceof RetryableAnswer) return error.result;
    throw error;
  }
}

/** No response, request timeout, throttling, or a server-side failure. */
export function isRetryable(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

/** `Retry-After` in seconds, or an HTTP date. */
function retryAfterMs(header: string | null): number {
  if (!header) return 0;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  return Math.max(0, Date.parse(header) - Date.now()) || 0;
}
