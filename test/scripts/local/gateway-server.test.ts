import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { GatewayAnswer } from '../../../scripts/local/activity-recorder.js';
import {
  fromProxyResult,
  gatewayAnswer,
  type Invoke,
  startGatewayServer,
} from '../../../scripts/local/gateway-server.js';

describe('fromProxyResult (function result to HTTP response)', () => {
  it('merges headers and multiValueHeaders and adds the request id header', () => {
    const response = fromProxyResult(
      {
        statusCode: 409,
        headers: { 'content-type': 'application/problem+json', 'x-one': 'a' },
        multiValueHeaders: { 'set-cookie': ['a=1', 'b=2'] },
        body: '{"status":409}',
      },
      'req-1',
    );

    expect(response.statusCode).toBe(409);
    expect(response.headers).toEqual([
      ['content-type', 'application/problem+json'],
      ['x-one', 'a'],
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=2'],
      ['x-amzn-RequestId', 'req-1'],
    ]);
    expect(response.body.toString()).toBe('{"status":409}');
  });

  it('decodes a base64 body and names JSON as the type when the function named none', () => {
    const response = fromProxyResult(
      {
        statusCode: 200,
        body: Buffer.from('{"ok":true}').toString('base64'),
        isBase64Encoded: true,
      },
      'req-2',
    );

    expect(response.body.toString()).toBe('{"ok":true}');
    expect(response.headers).toContainEqual(['Content-Type', 'application/json']);
  });

  it('answers 502 Internal server error for a result that is not a proxy response', () => {
    for (const result of [
      undefined,
      null,
      'text',
      { body: 'no status' },
      { statusCode: 'two hundred' },
    ]) {
      const response = fromProxyResult(result, 'req-3');

      expect(response.statusCode).toBe(502);
      expect(JSON.parse(response.body.toString())).toEqual({ message: 'Internal server error' });
    }
  });
});

describe('gatewayAnswer (what the REST API answers without the function)', () => {
  it('sends POST /callback to the function', () => {
    expect(gatewayAnswer('POST', '/callback', 'req-4')).toBeUndefined();
  });

  it.each([
    ['GET', '/callback'],
    ['PUT', '/callback'],
    ['OPTIONS', '/callback'],
    ['HEAD', '/callback'],
    ['POST', '/'],
    ['POST', '/callback/'],
    ['POST', '/Callback'],
    ['POST', '/prod/callback'],
  ])('answers %s %s itself with 403 Missing Authentication Token', (method, path) => {
    const answer = gatewayAnswer(method, path, 'req-5');

    expect(answer?.statusCode).toBe(403);
    expect(JSON.parse(answer?.body.toString() ?? '')).toEqual({
      message: 'Missing Authentication Token',
    });
  });
});

describe('startGatewayServer (the local REST API over HTTP)', () => {
  const withGateway = async (invoke: Invoke, work: (url: string) => Promise<void>) => {
    const gateway = await startGatewayServer({
      invoke,
      host: '127.0.0.1',
      port: 0,
      stage: 'local',
    });
    try {
      await work(`http://127.0.0.1:${gateway.port}/callback`);
    } finally {
      await gateway.close();
    }
  };

  /** A function that answers 204 and counts how often the gateway invoked it. */
  const countingFunction = () => {
    const calls = { count: 0 };
    const invoke: Invoke = async () => {
      calls.count += 1;
      return { statusCode: 204, body: '' };
    };
    return { invoke, calls };
  };

  it('answers a body over 10 MB itself with 413 Request Too Long, never invoking the function', async () => {
    const { invoke, calls } = countingFunction();

    await withGateway(invoke, async (url) => {
      const response = await fetch(url, {
        method: 'POST',
        body: Buffer.alloc(10 * 1024 * 1024 + 1, 'x'),
      });

      expect(response.status).toBe(413);
      expect(response.headers.get('x-amzn-errortype')).toBe('RequestTooLargeException');
      expect(await response.json()).toEqual({ message: 'Request Too Long' });
    });
    expect(calls.count).toBe(0);
  });

  it('answers a chunked body (no length given) over 10 MB with 413 too, once past the limit', async () => {
    const { invoke, calls } = countingFunction();
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 11 MB, then the stream stays open: only the limit can end the request.
        if (sent < 11) {
          sent += 1;
          controller.enqueue(chunk);
        }
      },
    });

    await withGateway(invoke, async (url) => {
      const response = await fetch(url, { method: 'POST', body, duplex: 'half' } as RequestInit);

      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ message: 'Request Too Long' });
    });
    expect(calls.count).toBe(0);
  });

  it('answers 502 Internal server error when the function throws, its message kept back', async () => {
    const invoke: Invoke = async () => {
      throw new Error('secret detail');
    };

    await withGateway(invoke, async (url) => {
      const response = await fetch(url, { method: 'POST', body: '{}' });

      expect(response.status).toBe(502);
      expect(await response.text()).toBe('{"message":"Internal server error"}');
    });
  });

  it('gives a cross-origin preflight no allowance, and refuses a POST that carries an Origin', async () => {
    const { invoke, calls } = countingFunction();

    await withGateway(invoke, async (url) => {
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://attacker.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-api-key',
        },
      });
      const fromPage = await fetch(url, {
        method: 'POST',
        headers: { origin: 'https://attacker.example', 'content-type': 'text/plain' },
        body: '{}',
      });

      for (const response of [preflight, fromPage]) {
        expect(response.status).toBe(403);
        const allowances = [...response.headers.keys()].filter((name) =>
          name.startsWith('access-control-'),
        );
        expect(allowances).toEqual([]);
      }
    });
    expect(calls.count).toBe(0);
  });

  it('tells onAnswer of each answer to POST /callback, with outcome and duration, and of nothing else', async () => {
    const answers: GatewayAnswer[] = [];
    let calls = 0;
    const invoke: Invoke = async () => {
      calls += 1;
      await sleep(20);
      return calls === 2
        ? { statusCode: 409, body: '{}' }
        : { statusCode: 204, headers: { 'X-Callback-Outcome': 'recorded' }, body: '' };
    };
    const gateway = await startGatewayServer({
      invoke,
      host: '127.0.0.1',
      port: 0,
      stage: 'local',
      onAnswer: (answer) => answers.push(answer),
    });
    try {
      const base = `http://127.0.0.1:${gateway.port}`;
      await fetch(`${base}/callback`, { method: 'POST', body: '{}' });
      await fetch(`${base}/callback`, { method: 'POST', body: '{}' });
      await fetch(`${base}/elsewhere`, { method: 'POST', body: '{}' });
      await fetch(`${base}/callback`, { method: 'POST', headers: { origin: 'https://x.example' } });
    } finally {
      await gateway.close();
    }

    expect(answers.map(({ status, outcome }) => [status, outcome])).toEqual([
      [204, 'recorded'],
      [409, undefined],
    ]);
    for (const { ms } of answers) expect(ms).toBeGreaterThanOrEqual(19);
  });

  it('drops a request whose client goes away mid-body, never invoking the function, and serves on', async () => {
    const { invoke, calls } = countingFunction();

    await withGateway(invoke, async (url) => {
      const { port } = new URL(url);
      const socket = connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        'POST /callback HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n{"partial":',
      );
      await sleep(50);
      socket.destroy();
      await sleep(50);

      expect(calls.count).toBe(0);
      expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(204);
      expect(calls.count).toBe(1);
    });
  });

  it('on close, lets a callback in flight finish and answers it, then ends its connection', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let invoked: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      invoked = resolve;
    });
    let finished = false;
    const invoke: Invoke = async () => {
      invoked();
      await released;
      finished = true;
      return { statusCode: 204, body: '' };
    };
    const gateway = await startGatewayServer({
      invoke,
      host: '127.0.0.1',
      port: 0,
      stage: 'local',
    });
    const answer = fetch(`http://127.0.0.1:${gateway.port}/callback`, {
      method: 'POST',
      body: '{}',
    });
    await started;

    const closed = gateway.close();
    await sleep(20);
    release();
    const response = await answer;
    await closed;

    expect(finished).toBe(true);
    expect(response.status).toBe(204);
    expect(response.headers.get('connection')).toBe('close');
    expect(gateway.close()).toBe(closed);
  });
});
