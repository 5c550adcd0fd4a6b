import { terminalText } from '../cli/terminal-text.js';

/** What to do about each refusal, by status; the receiver's problem title says what happened. */
const advice: Readonly<Record<number, string>> = {
  400: 'the body is not JSON the receiver can read: compare it with docs/callback-interface.md',
  401: "check the key (--key-file, CALLBACK_API_KEY): it must be one of the receiver's CALLBACK_API_KEYS",
  403: 'the hash was made with another key or over other text: check the key, or try --no-hash',
  408: 'the receiver timed out reading the request: retry later',
  409: 'the reference is recorded with other content: the receiver keeps the first',
  413: 'the body is larger than the receiver accepts',
  415: 'send content-type: application/json',
  422: 'a field fails validation: see the detail in the answer (--json)',
  429: 'the receiver is throttling: lower --concurrency',
};

/**
 * One line for a refusal: status, the problem's title, and what to do. API Gateway's own 403
 * for an unknown route or method is told apart from the receiver's hash refusal.
 */
export function explainAnswer(response: Response, text: string) {
  const { status } = response;
  if (response.headers.get('x-amzn-errortype') === 'MissingAuthenticationTokenException') {
    return {
      reason: `${status} Missing Authentication Token: no route here; --url must be the receiver's POST …/callback URL`,
    };
  }
  let problem: { type?: unknown; title?: unknown } | null = null;
  try {
    problem = JSON.parse(text);
  } catch {
    // Not problem JSON (a proxy's error page, say): the status line speaks for it.
  }
  const title = typeof problem?.title === 'string' ? problem.title : response.statusText;
  const hint = advice[status] ?? (status >= 500 ? 'the receiver failed: see its logs' : undefined);
  return {
    ...(typeof problem?.type === 'string' ? { problem: problem.type } : {}),
    reason: `${status} ${printable(title || 'no problem title')}${hint ? `: ${hint}` : ''}`,
  };
}

/** No answer at all (simulate, resubmit): why, in the words of someone who has to fix it. */
export function explainNetworkFailure(error: unknown, url: string, timeoutMs: number): string {
  const { host, hostname } = new URL(url);
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer from ${host} within ${timeoutMs} ms: the receiver is slow or unreachable (raise --timeout-ms, or check it is up)`;
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code === 'ECONNREFUSED') {
    return `connection refused by ${host}: nothing listens there (start the receiver with npm start, or check --url)`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `DNS could not resolve ${hostname} (${code}): check the host name in --url`;
  }
  if (code && /CERT|TLS|SSL|EPROTO/.test(code)) {
    return `TLS with ${host} failed (${code}): check http versus https in --url, and the server's certificate`;
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return `${host} closed the connection before answering (${code}): check the receiver's logs`;
  }
  const detail = typeof cause?.message === 'string' ? cause.message : String(error);
  return `no answer from ${host}: ${printable(code ? `${code} ${detail}` : detail)}`;
}

/** Text from the network goes to a terminal: controls made visible, bounded length. */
function printable(text: string): string {
  const shown = terminalText(text);
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}
