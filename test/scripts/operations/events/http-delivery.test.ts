import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver } from '../../../../scripts/operations/events/http-delivery.js';

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

  /** A consumer that answers every request with `status`, counting connections and bodies. */
  async function answeringConsumer(status: number) {
    const bodies: string[] = [];
    let connections = 0;
    server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      bodies.push(body);
      response.writeHead(status, { location: 'http://127.0.0.1:9/elsewhere' }).end('ignored');
    });
    server.on('connection', () => {
      connections += 1;
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/`, bodies, connections: () => connections };
  }

  it('sends one event after another over one kept-open connection, bodies whole', async () => {
    const consumer = await answeringConsumer(204);

    for (const body of ['{"n":1}', '{"n":"é"}', '{"n":3}']) {
      expect(await deliver(consumer.url, body, {})).toEqual({
        delivered: true,
        attempts: 1,
        status: 204,
      });
    }

    expect(consumer.bodies).toEqual(['{"n":1}', '{"n":"é"}', '{"n":3}']);
    expect(consumer.connections()).toBe(1);
  });

  it('follows no redirect: a 302 is a refusal, retried and then given up', async () => {
    const consumer = await answeringConsumer(302);

    const outcome = await deliver(consumer.url, '{}', {}, { attempts: 2, firstRetryMs: 10 });

    expect(outcome).toEqual({ delivered: false, attempts: 2, problem: 'answered 302' });
    expect(consumer.bodies).toHaveLength(2);
  });

  it('names a refused connection by its code', async () => {
    const consumer = await answeringConsumer(204);
    server?.close();
    await once(server as Server, 'close');

    const outcome = await deliver(consumer.url, '{}', {}, { attempts: 1 });

    expect(outcome).toMatchObject({ delivered: false, attempts: 1 });
    expect(outcome?.delivered === false && outcome.problem).toMatch(
      /^ECONNREFUSED \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/,
    );
  });

  it('speaks TLS to an https URL: a consumer that answers plain http is named by the TLS error', async () => {
    const consumer = await answeringConsumer(204);

    const outcome = await deliver(
      consumer.url.replace('http:', 'https:'),
      '{}',
      {},
      { attempts: 1 },
    );

    expect(outcome).toMatchObject({ delivered: false, attempts: 1 });
    expect(outcome?.delivered === false && outcome.problem).toMatch(/^EPROTO \(/);
    expect(consumer.bodies).toEqual([]);
  });

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
