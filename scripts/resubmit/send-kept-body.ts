import type { KeptRefusal } from '../query/refusal-queries.js';

export interface Resubmission {
  readonly url: string;
  readonly key: string;
  /** Overrides the kept Content-Type (say, after a 415 from a gateway that sent text/plain). */
  readonly contentType?: string;
  readonly timeoutMs: number;
}

export interface ResubmitAnswer {
  readonly status: number;
  /** `recorded` or `duplicate` on a 204. */
  readonly outcome?: string;
  /** The problem's title and detail on a refusal. */
  readonly title?: string;
  readonly detail?: string;
}

/**
 * POSTs the kept body again, byte for byte, with the kept Content-Type and the given key: the
 * same delivery the gateway made, judged by the receiver as it is now.
 */
export async function sendKeptBody(
  refusal: KeptRefusal,
  resubmission: Resubmission,
): Promise<ResubmitAnswer> {
  const contentType =
    resubmission.contentType ?? keptHeader(refusal, 'content-type') ?? 'application/json';
  const response = await fetch(resubmission.url, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-api-key': resubmission.key },
    body: refusal.body,
    signal: AbortSignal.timeout(resubmission.timeoutMs),
  });
  const outcome = response.headers.get('x-callback-outcome') ?? undefined;
  const text = await response.text();
  let problem: { title?: unknown; detail?: unknown } = {};
  try {
    problem = JSON.parse(text) as typeof problem;
  } catch {
    // Not problem JSON (a proxy's page, say): the status alone is the answer.
  }
  return {
    status: response.status,
    ...(outcome !== undefined ? { outcome } : {}),
    ...(typeof problem.title === 'string' ? { title: problem.title } : {}),
    ...(typeof problem.detail === 'string' ? { detail: problem.detail } : {}),
  };
}

function keptHeader(refusal: KeptRefusal, name: string): string | undefined {
  for (const [header, value] of Object.entries(refusal.headers)) {
    if (header.toLowerCase() === name) return value;
  }
  return undefined;
}

/** Why a request got no answer, in one line: the network error's code, not a stack. */
export function describeSendFailure(error: unknown, url: string): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `no answer from ${url} in time`;
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${url}: is the receiver running there?`;
    case 'ENOTFOUND':
      return `the host of ${url} was not found (DNS)`;
    default:
      return `could not reach ${url}: ${cause?.code ?? cause?.message ?? String(error)}`;
  }
}
