import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver } from '../../../../scripts/local/events/http-delivery.js';

describe('delivering one event to a consumer', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    server?.close();
    server = undefined;
  });

  /** A consumer that reads the request and never answers. */
  async function hungConsumer(): Promise<{ url: string; requests: () => number }> {
    let requests = 0;
    server = createServer((request) => {
      requests += 1;
      request.resume();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/`, requests: () => requests };
  }

  it('gives up on a consumer that never answers after each try times out', async () => {
    const consumer = await hungConsumer();

    const outcome = await deliver(
      consumer.url,
      '{}',
      {},
      {
        attempts: 2,
        firstRetryMs: 10,
        attemptTimeoutMs: 100,
      },
    );

    expect(outcome).toEqual({ delivered: false, attempts: 2, problem: 'no answer in 100 ms' });
    expect(consumer.requests()).toBe(2);
  });

  it('stops at once when told to, leaving the event owed (no outcome)', async () => {
    const consumer = await hungConsumer();
    const stop = new AbortController();
    const started = Date.now();

    const delivery = deliver(consumer.url, '{}', {}, { attemptTimeoutMs: 10_000 }, stop.signal);
    await once(server as Server, 'request');
    stop.abort();

    expect(await delivery).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
