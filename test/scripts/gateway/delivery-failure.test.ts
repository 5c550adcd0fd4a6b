import { describe, expect, it } from 'vitest';
import { explainAnswer, explainNetworkFailure } from '../../../scripts/gateway/delivery-failure.js';

/**
 * The one line simulate and resubmit print for a refused or lost callback: what happened, in
 * the receiver's words when it gave some, and what to do about it.
 */

const problem = (status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return explainAnswer(new Response(text, { status, headers }), text);
};

describe('explainAnswer', () => {
  it("gives the receiver's problem type and title, and the advice for its status", () => {
    expect(
      problem(403, { type: 'urn:callback-receiver:problem:hash-mismatch', title: 'Hash mismatch' }),
    ).toEqual({
      problem: 'urn:callback-receiver:problem:hash-mismatch',
      reason:
        '403 Hash mismatch: the hash was made with another key or over other text: check the key, or try --no-hash',
    });
  });

  it("tells API Gateway's Missing Authentication Token apart: the URL is wrong", () => {
    const answer = problem(403, '{"message":"Missing Authentication Token"}', {
      'x-amzn-errortype': 'MissingAuthenticationTokenException',
    });

    expect(answer).toEqual({
      reason:
        "403 Missing Authentication Token: no route here; --url must be the receiver's POST …/callback URL",
    });
  });

  it("falls back to the status text for a proxy's HTML page, and says a 5xx is the receiver's", () => {
    const text = '<html>Bad gateway</html>';
    const answer = explainAnswer(
      new Response(text, { status: 502, statusText: 'Bad Gateway' }),
      text,
    );

    expect(answer).toEqual({ reason: '502 Bad Gateway: the receiver failed: see its logs' });
  });

  it('says when there is no title at all, and adds no advice for a status it has none for', () => {
    expect(problem(418, { title: 42 })).toEqual({ reason: '418 no problem title' });
  });

  it('makes control characters in a title visible and cuts a long one short', () => {
    const answer = problem(400, { title: `Bad\u001b[31m ${'x'.repeat(300)}` });

    expect(answer.reason).not.toContain('\u001b');
    expect(answer.reason).toMatch(/^400 Bad\S*\[31m x+…: the body is not JSON/);
    expect(answer.reason.length).toBeLessThan(300);
  });
});

describe('explainNetworkFailure', () => {
  const url = 'https://receiver.example:8443/callback';
  const failed = (code: string, message = `${code} something`) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

  it('says a timeout names the wait and how to raise it', () => {
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');

    expect(explainNetworkFailure(timeout, url, 5000)).toBe(
      'no answer from receiver.example:8443 within 5000 ms: the receiver is slow or unreachable (raise --timeout-ms, or check it is up)',
    );
  });

  it.each([
    [
      'ENOTFOUND',
      'DNS could not resolve receiver.example (ENOTFOUND): check the host name in --url',
    ],
    [
      'EAI_AGAIN',
      'DNS could not resolve receiver.example (EAI_AGAIN): check the host name in --url',
    ],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "TLS with receiver.example:8443 failed (ERR_TLS_CERT_ALTNAME_INVALID): check http versus https in --url, and the server's certificate",
    ],
    [
      'EPROTO',
      "TLS with receiver.example:8443 failed (EPROTO): check http versus https in --url, and the server's certificate",
    ],
    [
      'ECONNRESET',
      "receiver.example:8443 closed the connection before answering (ECONNRESET): check the receiver's logs",
    ],
    [
      'UND_ERR_SOCKET',
      "receiver.example:8443 closed the connection before answering (UND_ERR_SOCKET): check the receiver's logs",
    ],
    ['EHOSTUNREACH', 'no answer from receiver.example:8443: EHOSTUNREACH EHOSTUNREACH something'],
  ])('explains %s in words', (code, line) => {
    expect(explainNetworkFailure(failed(code), url, 5000)).toBe(line);
  });

  it('shows the error itself when it carries no code', () => {
    expect(explainNetworkFailure(new Error('socket hang up'), url, 5000)).toBe(
      'no answer from receiver.example:8443: Error: socket hang up',
    );
  });
});
