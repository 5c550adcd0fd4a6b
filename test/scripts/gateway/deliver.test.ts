import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver, type RetryPolicy } from '../../../scripts/gateway/deliver.js';
import { freePort } from '../../../scripts/local/free-port.js';
import { timerTracker } from '../../support/live-timers.js';
import { type ScriptedAnswer, scriptedReceiver } from './support/scripted-receiver.js';

const policy: RetryPolicy = { maxAttempts: 4, backoffMs: 5, maxBackoffMs: 50, timeoutMs: 2_000 };

describe('deliver (the gateway retry policy)', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server?.closeAllConnections();
  });

  it('retries 503 and 429 until a 2xx, and reports the final outcome', async () => {
    const receiver = await scriptedReceiver([
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 429 },
      { status: 204, headers: { 'x-callback-outcome': 'recorded' } },
    ]);
    server = receiver.server;
    let retries = 0;

    const result = await deliver(receiver.url, 'key', '{}', policy, () => retries++);

    expect(result).toMatchObject({ status: 204, outcome: 'recorded' });
    expect(result.attempts.map((attempt) => attempt.status)).toEqual([503, 429, 204]);
    expect(retries).toBe(2);
  });

  it.each([400, 401, 403, 409, 413, 415, 422])(
    'does not retry a %i: the body will never be accepted',
    async (status) => {
      const receiver = await scriptedReceiver([
        {
          status,
          headers: { 'content-type': 'application/problem+json' },
          body: '{"type":"urn:x:problem:p"}',
        },
      ]);
      server = receiver.server;

      const result = await deliver(receiver.url, 'key', '{}', policy);

      expect(receiver.requests()).toBe(1);
      expect(result).toMatchObject({ status, problem: 'urn:x:problem:p' });
    },
  );

  it('leaves no timer of its own pending once the answer is in', async () => {
    const receiver = await scriptedReceiver([{ status: 204 }]);
    server = receiver.server;
    const timers = timerTracker();
    timers.start();

    const result = await deliver(receiver.url, 'key', '{}', { ...policy, timeoutMs: 60_000 });

    expect(result.status).toBe(204);
    const pending = await timers.stillPending();
    expect(pending.filter((stack) => stack.includes('gateway/deliver'))).toEqual([]);
  });

  it('gives up after the last attempt when the receiver keeps failing', async () => {
    const receiver = await scriptedReceiver([{ status: 500 }]);
    server = receiver.server;

    const result = await deliver(receiver.url, 'key', '{}', policy);

    expect(receiver.requests()).toBe(4);
    expect(result.status).toBe(500);
  });

  it('retries when nothing answers at all', async () => {
    const result = await deliver('http://127.0.0.1:9/callback', 'key', '{}', {
      ...policy,
      maxAttempts: 2,
    });

    expect(result.attempts).toHaveLength(2);
    expect(result.status).toBeUndefined();
    expect(result.attempts[0]?.error).toBeDefined();
  });

  it('waits at least as long as Retry-After asks before the next attempt', async () => {
    const receiver = await scriptedReceiver([
      { status: 503, headers: { 'retry-after': '1' } },
      { status: 204, headers: { 'x-callback-outcome': 'recorded' } },
    ]);
    server = receiver.server;
    const started = performance.now();

    const result = await deliver(receiver.url, 'key', '{}', { ...policy, maxBackoffMs: 5_000 });

    expect(result.attempts.map((attempt) => attempt.status)).toEqual([503, 204]);
    // The policy's own backoff is 5 ms: only Retry-After explains a wait of a second.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('takes Retry-After as an HTTP date too, waiting no longer than the policy allows', async () => {
    const later = new Date(Date.now() + 10_000).toUTCString();
    const receiver = await scriptedReceiver([
      { status: 429, headers: { 'retry-after': later } },
      { status: 204, headers: { 'x-callback-outcome': 'recorded' } },
    ]);
    server = receiver.server;
    const started = performance.now();

    const result = await deliver(receiver.url, 'key', '{}', { ...policy, maxBackoffMs: 300 });

    expect(result.attempts.map((attempt) => attempt.status)).toEqual([429, 204]);
    // The backoff alone is 5 to 10 ms; the date asks for ten seconds, capped at 300 ms.
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(250);
    expect(waited).toBeLessThan(5_000);
  });

  it('gives up on a receiver that does not answer within the timeout, saying how to wait longer', async () => {
    const receiver = await scriptedReceiver('hang');
    server = receiver.server;

    const result = await deliver(receiver.url, 'key', '{}', {
      ...policy,
      maxAttempts: 1,
      timeoutMs: 100,
    });

    expect(result.status).toBeUndefined();
    expect(result.reason).toBe(
      `no answer from ${new URL(receiver.url).host} within 100 ms: the receiver is slow or unreachable (raise --timeout-ms, or check it is up)`,
    );
  });

  it('explains a refused connection in one line with what to do', async () => {
    const port = await freePort();

    const result = await deliver(`http://127.0.0.1:${port}/callback`, 'key', '{}', {
      ...policy,
      maxAttempts: 1,
    });

    expect(result.reason).toBe(
      `connection refused by 127.0.0.1:${port}: nothing listens there (start the receiver with npm start, or check --url)`,
    );
  });

  it.each<{ refusal: string; answer: ScriptedAnswer; reason: string }>([
    {
      refusal: "a refusal's problem title and what to do",
      answer: {
        status: 401,
        headers: { 'content-type': 'application/problem+json' },
        body: '{"type":"urn:callback-receiver:problem:unauthorized","title":"Missing or unknown API key"}',
      },
      reason:
        "401 Missing or unknown API key: check the key (--key-file, CALLBACK_API_KEY): it must be one of the receiver's CALLBACK_API_KEYS",
    },
    {
      refusal: 'an unknown route (API Gateway 403), told from a refused body',
      answer: {
        status: 403,
        headers: { 'x-amzn-errortype': 'MissingAuthenticationTokenException' },
        body: '{"message":"Missing Authentication Token"}',
      },
      reason:
        "403 Missing Authentication Token: no route here; --url must be the receiver's POST …/callback URL",
    },
  ])('names $refusal in one line', async ({ answer, reason }) => {
    const receiver = await scriptedReceiver([answer]);
    server = receiver.server;

    const result = await deliver(receiver.url, 'key', '{}', policy);

    expect(result.reason).toBe(reason);
  });
});
