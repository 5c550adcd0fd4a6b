import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { toApiGatewayEvent } from './api-gateway-event.js';
import { fromGatewayResponse, fromProxyResult, type HttpResponse } from './api-gateway-response.js';
import {
  callbackResource,
  integrationTimeout,
  integrationTimeoutMs,
  maxPayloadBytes,
  requestTooLarge,
  route,
} from './api-gateway-routes.js';
import { lambdaContext } from './lambda-context.js';

export type Invoke = (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>;

export interface GatewayServerOptions {
  readonly invoke: Invoke;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly stage: string;
}

export interface GatewayServer {
  readonly port: number;
  /**
   * Stops taking connections, lets every invocation already started finish (its write reaches
   * the engine before this resolves), then closes the remaining connections.
   */
  close(): Promise<void>;
}

/** How long `close` waits for clients to drop their connections once all work is done. */
const connectionGraceMs = 2_000;

/**
 * A local stand-in for the REST API: each request becomes the proxy event API Gateway would send
 * and the function's result becomes the HTTP response; what API Gateway answers by itself
 * (unknown routes, oversized bodies, a failing or slow function) it answers here the same way.
 */
export async function startGatewayServer(options: GatewayServerOptions): Promise<GatewayServer> {
  const invocations = new Set<Promise<unknown>>();
  let closing = false;

  async function respond(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = new Date();
    const requestId = randomUUID();
    const method = request.method ?? 'GET';
    const target = request.url ?? '/';
    const matched = route(method, new URL(target, 'http://localhost').pathname);
    if (matched.kind === 'gateway') {
      request.resume();
      return send(response, fromGatewayResponse(matched.response, requestId), closing);
    }
    const body = await readBody(request, maxPayloadBytes);
    if (body === 'too-large') {
      return send(response, fromGatewayResponse(requestTooLarge, requestId), true);
    }
    const event = toApiGatewayEvent(
      {
        method,
        target,
        rawHeaders: request.rawHeaders,
        body,
        sourceIp: clientAddress(request),
        localPort: request.socket.localPort ?? options.port,
        httpVersion: request.httpVersion,
      },
      { requestId, stage: options.stage, resource: callbackResource, receivedAt },
    );
    const invocation = options
      .invoke(event, lambdaContext(randomUUID(), integrationTimeoutMs))
      .then((result) => fromProxyResult(result, requestId))
      // A thrown error is the function's failure: API Gateway answers 502, nothing leaks.
      .catch(() => fromProxyResult(undefined, requestId));
    invocations.add(invocation);
    void invocation.finally(() => invocations.delete(invocation));
    const answer = await withTimeout(
      invocation,
      integrationTimeoutMs,
      fromGatewayResponse(integrationTimeout, requestId),
    );
    send(response, answer, closing);
  }

  const server = createServer((request, response) => {
    respond(request, response).catch(() => {
      // Only reading the request can fail here (the client went away): nothing to answer.
      response.destroy();
    });
  });
  server.listen(options.port, options.host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => {
      throw error;
    }),
  ]);
  const port = (server.address() as AddressInfo).port;

  let closed: Promise<void> | undefined;
  async function close(): Promise<void> {
    closing = true;
    const serverClosed = once(server, 'close');
    // Stops accepting connections; idle keep-alive connections are closed at once.
    server.close();
    while (invocations.size > 0) await Promise.allSettled([...invocations]);
    const grace = setTimeout(() => server.closeAllConnections(), connectionGraceMs);
    server.closeIdleConnections();
    await serverClosed;
    clearTimeout(grace);
  }
  return {
    port,
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}

function send(response: ServerResponse, answer: HttpResponse, closeConnection: boolean): void {
  if (response.headersSent || response.destroyed) return;
  const headers: string[] = [];
  for (const [name, value] of answer.headers) headers.push(name, value);
  if (closeConnection) headers.push('Connection', 'close');
  const bodyless = answer.statusCode === 204 || answer.statusCode === 304;
  if (!bodyless) headers.push('Content-Length', String(answer.body.length));
  response.writeHead(answer.statusCode, headers);
  response.end(bodyless ? undefined : answer.body);
}

/** The body, or `too-large` as soon as it passes the limit (the rest is not buffered). */
async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return 'too-large';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      request.resume();
      return 'too-large';
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The client's address as API Gateway reports it: plain IPv4 rather than `::ffff:a.b.c.d`. */
function clientAddress(request: IncomingMessage): string {
  const address = request.socket.remoteAddress ?? '127.0.0.1';
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((done) => {
    timer = setTimeout(() => done(fallback), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
