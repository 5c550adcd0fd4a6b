import type { KeptRefusal } from '../../table/refusal-item.js';

/** Where a kept body is sent again: the receiver's POST …/callback URL and a key it accepts. */
export interface ResubmitTarget {
  readonly url: string;
  /** Sent only as `x-api-key`; never printed or shown. */
  readonly apiKey: string;
  /** Instead of the kept Content-Type (`--content-type`). */
  readonly contentType?: string;
  readonly timeoutMs: number;
}

/** The receiver's answer to a resubmitted body. */
export interface ResubmitAnswer {
  readonly status: number;
  /** `x-callback-outcome`: `recorded` or `duplicate` on a 204. */
  readonly outcome?: string;
  /** On a refusal: the problem's title and detail, when the answer is problem JSON. */
  readonly title?: string;
  readonly detail?: string;
}

/**
 * The same delivery the gateway made, judged by the receiver as it is now: the kept bytes,
 * exactly, with the kept Content-Type. Used by `npm run resubmit` and the console. Rejects when
 * no answer comes (see `explainNetworkFailure`); a timeout rejects with a `TimeoutError`.
 */
export async function resubmitRefusal(
  refusal: KeptRefusal,
  target: ResubmitTarget,
): Promise<ResubmitAnswer> {
  const [, kept] =
    Object.entries(refusal.headers).find(([name]) => name.toLowerCase() === 'content-type') ?? [];
  // Our own timer, cleared once answered: AbortSignal.timeout() would hold the process open.
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('resubmit timed out', 'TimeoutError')),
    target.timeoutMs,
  );
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': target.contentType ?? kept ?? 'application/json',
        'x-api-key': target.apiKey,
      },
      body: refusal.body,
      signal: controller.signal,
    });
    let problem: { title?: unknown; detail?: unknown } = {};
    try {
      problem = JSON.parse(await response.text()) as typeof problem;
    } catch {
      // Not problem JSON (a proxy's page, say): the status alone is the answer.
    }
    const outcome = response.headers.get('x-callback-outcome') ?? undefined;
    const { title, detail } = problem;
    return {
      status: response.status,
      ...(outcome !== undefined ? { outcome } : {}),
      ...(typeof title === 'string' ? { title } : {}),
      ...(typeof detail === 'string' ? { detail } : {}),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** `now 204 recorded`, `now 422 Validation failed: …`: the answer in words, for both faces. */
export function answerText(answer: ResubmitAnswer): string {
  return [answer.status, answer.outcome ?? answer.title, answer.detail]
    .filter((part) => part !== undefined)
    .join(' ');
}
