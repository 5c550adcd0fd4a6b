import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { finished } from 'node:stream/promises';
import pRetry, { AbortError } from 'p-retry';

/** How hard one event is pushed at a consumer before it becomes a dead letter. */
export interface DeliveryPolicy {
  /** Tries in all, the first included. @default 6 */
  readonly attempts?: number;
  /** Wait before the first retry; doubled each time, with jitter. @default 1000 */
  readonly firstRetryMs?: number;
  /** The longest wait between two tries. @default 16000 */
  readonly maxRetryMs?: number;
  /** One try gives up after this long (a consumer that hangs). @default 10000 */
  readonly attemptTimeoutMs?: number;
  /** No retry starts after this long: the bound on one event's delivery. @default 60000 */
  readonly maxDeliveryMs?: number;
}

export const deliveryDefaults = {
  attempts: 6,
  firstRetryMs: 1_000,
  maxRetryMs: 16_000,
  attemptTimeoutMs: 10_000,
  maxDeliveryMs: 60_000,
} as const satisfies Required<DeliveryPolicy>;

/** One failed try that will be tried again: which, why, and how long until the next. */
export interface FailedTry {
  readonly attempt: number;
  readonly problem: string;
  readonly retryInMs: number;
}

export type DeliveryOutcome =
  | { readonly delivered: true; readonly attempts: number; readonly status: number }
  | { readonly delivered: false; readonly attempts: number; readonly problem: string };

/** Thrown for a non-2xx answer, so p-retry counts it as a failed try. */
class RefusedError extends Error {
  override name = 'RefusedError';
}

/**
 * POSTs `body` as JSON until the consumer answers 2xx, retrying a refused connection, a timeout
 * or any other answer with exponential backoff within the policy's bounds. `signal` (the server
 * stopping) ends it at once: the outcome is then `undefined` and the event is still owed.
 */
export async function deliver(
  url: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  policy: DeliveryPolicy = {},
  signal?: AbortSignal,
  onRetry?: (failed: FailedTry) => void,
): Promise<DeliveryOutcome | undefined> {
  const settings = { ...deliveryDefaults, ...policy };
  let attempts = 0;
  try {
    const status = await pRetry(
      async () => {
        attempts += 1;
        return post(url, body, headers, settings.attemptTimeoutMs, signal);
      },
      {
        retries: settings.attempts - 1,
        minTimeout: settings.firstRetryMs,
        maxTimeout: settings.maxRetryMs,
        randomize: true,
        maxRetryTime: settings.maxDeliveryMs,
        // Every failure of a try is worth another: the consumer is being written and restarted.
        shouldRetry: () => true,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft, retryDelay }) => {
          if (retriesLeft > 0 && !signal?.aborted) {
            onRetry?.({ attempt: attemptNumber, problem: describe(error), retryInMs: retryDelay });
          }
        },
        ...(signal && { signal }),
      },
    );
    return { delivered: true, attempts, status };
  } catch (error) {
    if (signal?.aborted) return undefined;
    return { delivered: false, attempts, problem: describe(error) };
  }
}

/**
 * One connection per consumer, kept open between events. node:http rather than fetch: replay and
 * redrive send a million events one after the other, and fetch (undici) left about 170 MB more
 * heap standing and took twice the CPU over 100,000 POSTs (docs/performance.md).
 */
const http = { request: httpRequest, agent: new HttpAgent({ keepAlive: true }) };
const https = { request: httpsRequest, agent: new HttpsAgent({ keepAlive: true }) };

async function post(
  url: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
  stop: AbortSignal | undefined,
): Promise<number> {
  // A controller whose timer is cleared: AbortSignal.timeout() would keep the process alive.
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`no answer in ${timeoutMs} ms`)),
    timeoutMs,
  );
  const onStop = () => controller.abort(stop?.reason);
  stop?.addEventListener('abort', onStop, { once: true });
  try {
    const response = await new Promise<IncomingMessage>((answered, failed) => {
      const transport = url.startsWith('https:') ? https : http;
      const request = transport.request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        agent: transport.agent,
        signal: controller.signal,
      });
      request.once('response', answered).on('error', failed).end(body);
    });
    // Read to its end (no redirect is followed), so the connection serves the next event.
    response.resume();
    await finished(response);
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) throw new RefusedError(`answered ${status}`);
    return status;
  } catch (error) {
    if (stop?.aborted) throw new AbortError('stopped');
    throw error;
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
  }
}

/** The last try's failure in words: the consumer's status, or the connection's error code. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof RefusedError) return error.message;
  // A try cut short by its timer: the timer's reason says how long it waited.
  if (error.name === 'AbortError' && error.cause instanceof Error) return error.cause.message;
  const { code } = error as NodeJS.ErrnoException;
  return code ? `${code} (${error.message})` : error.message;
}
