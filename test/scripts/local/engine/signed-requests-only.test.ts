import { createHash, createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SourceData } from '@smithy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynalite } from '../../../../scripts/local/engine/dynalite.js';
import { newEngineCredentials } from '../../../../scripts/local/engine/engine-credentials.js';
import type { RunningEngine } from '../../../../scripts/local/engine/local-engine.js';
import {
  maxBodyBytes,
  signedRequestsOnly,
} from '../../../../scripts/local/engine/signed-requests-only.js';

/**
 * Local mode's engine (dynalite behind the signature check) as another local user meets it over
 * a raw socket: what the engine answers, and when, to a request whose body has not been sent.
 * An engine that read a body before refusing it would wait for bytes the client never sends,
 * and these tests would time out. Signed SDK requests are engine-guard.test.ts's.
 */
const mb = 1024 * 1024;
const credentials = newEngineCredentials();

/** A client connection, with everything the engine sends on it. */
interface Connection {
  readonly socket: Socket;
  received(): string;
  /** Settles when the connection is closed (by either side, or reset). */
  readonly closed: Promise<unknown>;
}

async function connect(endpoint: string, localAddress = '127.0.0.1'): Promise<Connection> {
  const { port } = new URL(endpoint);
  const socket = createConnection({ host: '127.0.0.1', port: Number(port), localAddress });
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  // The engine closes a refused connection with the body unread, so the client may see a reset.
  socket.on('error', () => {});
  // Not events.once: it would reject on that reset, and the close is what is awaited.
  const closed = new Promise((closing) => socket.once('close', closing));
  await once(socket, 'connect');
  return { socket, received: () => text, closed };
}

/** Settles with `work`, or fails after `ms`: the engine did not answer while the body was unsent. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`nothing within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function requestHead(endpoint: string, headers: Record<string, string>): string {
  const lines = Object.entries({
    host: new URL(endpoint).host,
    'content-type': 'application/x-amz-json-1.0',
    'x-amz-target': 'DynamoDB_20120810.PutItem',
    ...headers,
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST / HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** The headers the SDK would send for `body` signed with `signWith`, less `host` (requestHead's). */
async function signedHeaders(
  endpoint: string,
  signWith = credentials,
  target = 'DynamoDB_20120810.PutItem',
  body = '{}',
) {
  const signer = new SignatureV4({
    credentials: signWith,
    region: 'us-east-1',
    service: 'dynamodb',
    sha256: NodeSha256,
  });
  const { hostname, port, host } = new URL(endpoint);
  const signed = await signer.sign({
    method: 'POST',
    protocol: 'http:',
    hostname,
    port: Number(port),
    path: '/',
    headers: { host, 'x-amz-target': target },
    body,
  });
  const { host: _, ...headers } = signed.headers;
  return headers;
}

/** An independent hash for the signer. */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    const key = secret as string | Uint8Array | undefined;
    this.hash = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  }
  update(data: Uint8Array) {
    this.hash.update(data);
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {}
}

describe("local mode's engine reads no body before the headers pass", () => {
  let engine: RunningEngine;
  beforeAll(async () => {
    engine = await startDynalite(undefined, { credentials });
  });
  afterAll(() => engine.stop());

  it.each([
    ['an unsigned request', () => ({}), 'MissingAuthenticationTokenException'],
    [
      'a request signed with another access key id',
      () => signedHeaders(engine.endpoint, newEngineCredentials()),
      'UnrecognizedClientException',
    ],
    [
      "the run's access key id with a stale x-amz-date",
      async () => ({ ...(await signedHeaders(engine.endpoint)), 'x-amz-date': '20200101T000000Z' }),
      'InvalidSignatureException',
    ],
  ])(
    'answers %s declaring 15 MB after 1 KB of it, and closes the connection',
    async (_, headers, exception) => {
      const client = await connect(engine.endpoint);

      client.socket.write(
        requestHead(engine.endpoint, { ...(await headers()), 'content-length': String(15 * mb) }),
      );
      client.socket.write('x'.repeat(1024));
      await within(5_000, client.closed);

      expect(client.received()).toMatch(/^HTTP\/1\.1 400 /);
      expect(client.received()).toContain(exception);
      expect(client.received()).toMatch(/connection: close/i);
    },
  );

  it('answers a declared length over the limit with 413 before reading any of it', async () => {
    const client = await connect(engine.endpoint);

    client.socket.write(
      requestHead(engine.endpoint, {
        ...(await signedHeaders(engine.endpoint)),
        'content-length': String(maxBodyBytes + 1),
      }),
    );
    await within(5_000, client.closed);

    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('refuses an unsigned chunked body before reading a chunk', async () => {
    const client = await connect(engine.endpoint);

    client.socket.write(requestHead(engine.endpoint, { 'transfer-encoding': 'chunked' }));
    client.socket.write(`400\r\n${'x'.repeat(1024)}\r\n`);
    await within(5_000, client.closed);

    expect(client.received()).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('stops reading a chunked body from the run key id at the limit: 413, and closed', async () => {
    const client = await connect(engine.endpoint);
    const chunk = `${mb.toString(16)}\r\n${'x'.repeat(mb)}\r\n`;

    client.socket.write(
      requestHead(engine.endpoint, {
        ...(await signedHeaders(engine.endpoint)),
        'transfer-encoding': 'chunked',
      }),
    );
    // One megabyte more than the limit, and no last chunk: only a count can stop the reading.
    for (let sent = 0; sent <= maxBodyBytes / mb; sent += 1) client.socket.write(chunk);
    await within(10_000, client.closed);
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('gives an unsigned request with Expect: 100-continue no go-ahead, only its refusal', async () => {
    const client = await connect(engine.endpoint);

    client.socket.write(
      requestHead(engine.endpoint, { expect: '100-continue', 'content-length': String(15 * mb) }),
    );
    await within(5_000, client.closed);

    expect(client.received()).not.toContain('100 Continue');
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 /);
  });
});

describe("local mode's engine serves what passes", () => {
  let engine: RunningEngine;
  beforeAll(async () => {
    engine = await startDynalite(undefined, { credentials });
  });
  afterAll(() => engine.stop());

  /** Everything the engine sends until `text` appears in it, or a failure after 5 s. */
  async function until(client: Connection, text: string): Promise<string> {
    await within(
      5_000,
      new Promise<void>((seen) => {
        const look = () => {
          if (client.received().includes(text)) {
            client.socket.off('data', look);
            seen();
          }
        };
        client.socket.on('data', look);
        look();
      }),
    );
    return client.received();
  }

  it('gives a signed request with Expect: 100-continue its go-ahead, then serves its body', async () => {
    const client = await connect(engine.endpoint);
    const target = 'DynamoDB_20120810.ListTables';
    const headers = await signedHeaders(engine.endpoint, credentials, target);

    client.socket.write(
      requestHead(engine.endpoint, {
        ...headers,
        'x-amz-target': target,
        expect: '100-continue',
        'content-length': '2',
      }),
    );
    expect(await until(client, '\r\n\r\n')).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/);
    client.socket.write('{}');

    expect(await until(client, 'TableNames')).toMatch(/HTTP\/1\.1 200 OK/);
    client.socket.destroy();
  });

  it('hands a signed empty body to dynalite, which answers it, not the signature check', async () => {
    const client = await connect(engine.endpoint);
    const target = 'DynamoDB_20120810.ListTables';
    const headers = await signedHeaders(engine.endpoint, credentials, target, '');

    client.socket.write(
      requestHead(engine.endpoint, { ...headers, 'x-amz-target': target, 'content-length': '0' }),
    );
    const answer = await until(client, '}');

    // dynalite's own answer (its request id) to a body that is not JSON: the check let it by.
    expect(answer).toMatch(/^x-amzn-RequestId: /im);
    expect(answer).toContain('com.amazon.coral.service#SerializationException');
    client.socket.destroy();
  });
});

describe('a signed client that goes away mid-body', () => {
  let engine: RunningEngine;
  beforeAll(async () => {
    engine = await startDynalite(undefined, { credentials });
  });
  afterAll(() => engine.stop());

  it('is dropped with nothing handed to dynalite, and the engine serves the next one', async () => {
    const client = await connect(engine.endpoint);
    client.socket.write(
      requestHead(engine.endpoint, {
        ...(await signedHeaders(engine.endpoint)),
        'content-length': '1000',
      }),
    );
    client.socket.write('{"TableName":');
    await new Promise((wait) => setTimeout(wait, 50));
    client.socket.destroy();
    await client.closed;

    const next = await connect(engine.endpoint);
    next.socket.write(requestHead(engine.endpoint, { 'content-length': '0' }));
    await within(5_000, next.closed);

    expect(client.received()).toBe('');
    expect(next.received()).toContain('MissingAuthenticationTokenException');
  });
});

describe('signedRequestsOnly on a server with no engine', () => {
  it('refuses to start rather than guard nothing', () => {
    expect(() => signedRequestsOnly(createServer(), credentials)).toThrow(
      'dynalite registered no request handler',
    );
  });
});

describe("local mode's engine bounds its connections", () => {
  let engine: RunningEngine;
  beforeAll(async () => {
    engine = await startDynalite(undefined, {
      credentials,
      connectionLimits: { perAddress: 2, total: 3 },
    });
  });
  afterAll(() => engine.stop());

  /** Served: an unsigned request gets its HTTP answer (and the connection is then closed). */
  async function served(client: Connection): Promise<string> {
    client.socket.write(requestHead(engine.endpoint, { 'content-length': '0' }));
    await within(5_000, client.closed);
    return client.received();
  }

  it('closes a connection past the per-address or the total bound, unanswered', async () => {
    const first = await connect(engine.endpoint);
    const second = await connect(engine.endpoint);
    const thirdFromSameAddress = await connect(engine.endpoint);
    await within(5_000, thirdFromSameAddress.closed);
    const otherAddress = await connect(engine.endpoint, '127.0.0.2');
    const pastTotal = await connect(engine.endpoint, '127.0.0.3');
    await within(5_000, pastTotal.closed);

    expect(thirdFromSameAddress.received()).toBe('');
    expect(pastTotal.received()).toBe('');
    for (const kept of [first, second, otherAddress]) {
      expect(await served(kept)).toContain('MissingAuthenticationTokenException');
    }
  });

  it('takes connections again once others have closed', async () => {
    const again = await connect(engine.endpoint);

    expect(await served(again)).toMatch(/^HTTP\/1\.1 400 /);
  });
});
