import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { outcomeHeader } from '../../lambda/http/callback-http-handler.js';
import type { GatewayAnswer } from './activity-recorder.js';
import { toApiGatewayEvent } from './api-gateway-event.js';
import { lambdaContext } from './lambda-context.js';

/** The function behind the local stand-in for the REST API (infra/constructs/callback-api.ts). */
export type Invoke = (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>;

/** The stack's one route is POST on this path, matched exactly: `/callback/` is another path. */
export const callbackResource = '/callback';
/** REST API limits: the payload quota and the default integration timeout. */
const maxPayloadBytes = 10 * 1024 * 1024;
const integrationTimeoutMs = 29_000;

/** API Gateway's own answers. Any other path or method, GET `/callback` too, gets its 403. */
const gatewayResponses = {
  missingRoute: [403, 'MissingAuthenticationTokenException', 'Missing Authentication Token'],
  tooLarge: [413, 'RequestTooLargeException', 'Request Too Long'],
  /** The function threw or returned something that is not a proxy result. */
  integrationFailure: [502, 'InternalServerErrorException', 'Internal server error'],
  integrationTimeout: [504, 'InternalServerErrorException', 'Endpoint request timed out'],
  /** Local mode only: see `answer`. */
  crossOrigin: [403, 'ForbiddenException', 'Forbidden'],
} as const;

type HttpResponse = {
  statusCode: number;
  headers: [string, string][];
  body: Buffer;
  closeConnection?: boolean;
};

/** What API Gateway answers itself for this route, or undefined when it reaches the function. */
export function gatewayAnswer(method: string, path: string, requestId: string) {
  return method === 'POST' && path === callbackResource
    ? undefined
    : gatewayResponse('missingRoute', requestId);
}

function gatewayResponse(kind: keyof typeof gatewayResponses, requestId: string): HttpResponse {
  const [statusCode, errorType, message] = gatewayResponses[kind];
  const headers: [string, string][] = [
    ['content-type', 'application/json'],
    ['x-amzn-ErrorType', errorType],
    ['x-amzn-RequestId', requestId],
  ];
  return { statusCode, headers, body: Buffer.from(JSON.stringify({ message })) };
}

/**
 * The function's proxy result as API Gateway answers it: `multiValueHeaders` wins over `headers`
 * for a name in both, JSON is the type of a body given none; an invalid result becomes a 502.
 */
export function fromProxyResult(result: unknown, requestId: string): HttpResponse {
  if (!isProxyResult(result)) return gatewayResponse('integrationFailure', requestId);
  const multi = result.multiValueHeaders ?? {};
  const inMulti = new Set(Object.keys(multi).map((name) => name.toLowerCase()));
  const headers = Object.entries(result.headers ?? {})
    .filter(([name]) => !inMulti.has(name.toLowerCase()))
    .map(([name, value]): [string, string] => [name, String(value)]);
  for (const [name, values] of Object.entries(multi)) {
    for (const value of values) headers.push([name, String(value)]);
  }
  const text = result.body ?? '';
  if (text !== '' && !headers.some(([name]) => name.toLowerCase() === 'content-type')) {
    headers.push(['Content-Type', 'application/json']);
  }
  headers.push(['x-amzn-RequestId', requestId]);
  const body = Buffer.from(text, result.isBase64Encoded ? 'base64' : 'utf8');
  return { statusCode: result.statusCode, headers, body };
}

function isProxyResult(value: unknown): value is APIGatewayProxyResult {
  const { statusCode, body } = (value ?? {}) as { statusCode?: unknown; body?: unknown };
  return (
    Number.isInteger(statusCode) &&
    (statusCode as number) >= 100 &&
    (statusCode as number) <= 599 &&
    (body === undefined || body === null || typeof body === 'string')
  );
}

/**
 * Serves until `close()`, which stops taking connections, lets every invocation already started
 * finish (its write reaches the engine before it resolves), then closes the remaining ones.
 */
export async function startGatewayServer(options: {
  readonly invoke: Invoke;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly stage: string;
  /**
   * Told of every answer to `POST /callback` (the route's, not a stray path's), with its time
   * since the request arrived: what feeds the console's Activity view. Must not throw.
   */
  readonly onAnswer?: (answer: GatewayAnswer) => void;
}): Promise<{ port: number; close(): Promise<void> }> {
  const invocations = new Set<Promise<HttpResponse>>();
  let closing = false;

  async function answer(request: IncomingMessage): Promise<HttpResponse> {
    const started = performance.now();
    const receivedAt = new Date();
    const requestId = randomUUID();
    const [method, target] = [request.method ?? 'GET', request.url ?? '/'];
    // Browsers send Origin on every cross-origin request and preflight; a payment gateway never
    // does. Refusing it (API Gateway would not) keeps any web page away from local mode, with
    // no CORS allowance to read an answer.
    if (request.headers.origin !== undefined) return gatewayResponse('crossOrigin', requestId);
    const refused = gatewayAnswer(method, new URL(target, 'http://localhost').pathname, requestId);
    if (refused) return refused;
    const reply = await answerCallback(request, { method, target, requestId, receivedAt });
    options.onAnswer?.({
      status: reply.statusCode,
      outcome: headerOf(reply, outcomeHeader),
      ms: performance.now() - started,
    });
    return reply;
  }

  /** `POST /callback`: the function's answer, or the gateway's when it cannot give one. */
  async function answerCallback(
    request: IncomingMessage,
    {
      method,
      target,
      requestId,
      receivedAt,
    }: { method: string; target: string; requestId: string; receivedAt: Date },
  ): Promise<HttpResponse> {
    const body = await readBody(request);
    // The rest of the body is left unread: the connection cannot carry another request.
    if (!body) return { ...gatewayResponse('tooLarge', requestId), closeConnection: true };
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
    // A thrown error is the function's failure: API Gateway answers 502, nothing leaks.
    const invocation = options
      .invoke(event, lambdaContext(randomUUID(), integrationTimeoutMs))
      .then(
        (result) => fromProxyResult(result, requestId),
        () => gatewayResponse('integrationFailure', requestId),
      );
    invocations.add(invocation);
    void invocation.finally(() => invocations.delete(invocation));
    const timer = new AbortController();
    const timedOut = gatewayResponse('integrationTimeout', requestId);
    return Promise.race([
      invocation,
      sleep(integrationTimeoutMs, timedOut, { signal: timer.signal }),
    ]).finally(() => timer.abort());
  }

  const server = createServer((request, response) => {
    answer(request).then(
      (reply) => send(response, reply, closing || reply.closeConnection === true),
      // Only reading the request can fail here (the client went away): nothing to answer.
      () => response.destroy(),
    );
  });
  server.listen(options.port, options.host);
  await once(server, 'listening'); // rejects on 'error' (a busy port, an address not ours)
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  async function close(): Promise<void> {
    closing = true;
    const serverClosed = once(server, 'close');
    server.close(); // stops accepting; idle keep-alive connections are closed at once
    while (invocations.size > 0) await Promise.allSettled([...invocations]);
    // Clients get a moment to drop their connections once all work is done.
    const grace = setTimeout(() => server.closeAllConnections(), 2_000);
    server.closeIdleConnections();
    await serverClosed;
    clearTimeout(grace);
  }
  return { port, close: () => (closed ??= close()) };
}

function headerOf(answer: HttpResponse, name: string): string | undefined {
  return answer.headers.find(([key]) => key.toLowerCase() === name)?.[1];
}

function send(response: ServerResponse, answer: HttpResponse, closeConnection: boolean): void {
  if (response.headersSent || response.destroyed) return;
  const headers = answer.headers.flat();
  if (closeConnection) headers.push('Connection', 'close');
  const bodyless = answer.statusCode === 204 || answer.statusCode === 304;
  if (!bodyless) headers.push('Content-Length', String(answer.body.length));
  response.writeHead(answer.statusCode, headers);
  response.end(bodyless ? undefined : answer.body);
}

/** The body, or undefined as soon as it passes API Gateway's limit (the rest is not buffered). */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  let size = Number(request.headers['content-length']) || 0;
  const chunks: Buffer[] = [];
  if (size <= maxPayloadBytes) {
    size = 0;
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxPayloadBytes) break;
      chunks.push(chunk);
    }
  }
  request.resume();
  return size > maxPayloadBytes ? undefined : Buffer.concat(chunks);
}

/** The client's address as API Gateway reports it: plain IPv4 rather than `::ffff:a.b.c.d`. */
function clientAddress(request: IncomingMessage): string {
  return (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
}
