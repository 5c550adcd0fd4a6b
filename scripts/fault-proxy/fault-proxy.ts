/**
 * A fault-injecting HTTP proxy in front of a DynamoDB engine, or of a stand-in for Secrets
 * Manager or EventBridge. The function under test reaches it through `AWS_ENDPOINT_URL_DYNAMODB`,
 * `AWS_ENDPOINT_URL_SECRETS_MANAGER` or `AWS_ENDPOINT_URL_EVENTBRIDGE`, so its faults arrive the
 * way AWS's would: on the network, below the SDK's retries, timeouts and error parsing.
 */
import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Decision, FaultPlan } from './fault-plan.js';
import {
  internalServerError,
  type Service,
  sendServiceError,
  throttlingError,
} from './service-error.js';
export interface FaultProxyOptions {
  /** The engine behind the proxy, e.g. `http://127.0.0.1:8000`. */
  readonly upstream: string;
  /** Whose errors the proxy writes (default `dynamodb`). */
  readonly service?: Service;
  /** Decides each request's fate; see `faultPlan`. */
  readonly plan: FaultPlan;
  /** How long a `delay` fault holds a request: longer than the SDK's timeout (default 1,000 ms). */
  readonly delayMs?: number;
  /** Port to listen on (default: a free one). */
  readonly port?: number;
}

/** Requests seen, by operation and by what was done to them. */
export interface FaultStats {
  readonly requests: number;
  readonly byDecision: Readonly<Record<Decision, number>>;
  readonly byOperation: Readonly<Record<string, Readonly<Partial<Record<Decision, number>>>>>;
}

export interface RunningFaultProxy {
  /** `http://127.0.0.1:<port>`, for the service's `AWS_ENDPOINT_URL_*`. */
  readonly endpoint: string;
  stats(): FaultStats;
  /** Resolves once no request is held or forwarded: every delayed write has landed or not. */
  idle(): Promise<void>;
  /** Stops listening, drops open connections and abandons held requests; safe to repeat. */
  stop(): Promise<void>;
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<RunningFaultProxy> {
  const upstream = new URL(options.upstream);
  const delayMs = options.delayMs ?? 1_000;
  const service = options.service ?? 'dynamodb';
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  const abandon = new AbortController();
  const sockets = new Set<Socket>();
  const inFlight = new Set<Promise<void>>();
  const byDecision: Record<Decision, number> = {
    pass: 0,
    throttle: 0,
    'server-error': 0,
    delay: 0,
    'land-then-drop': 0,
    hang: 0,
  };
  const byOperation: Record<string, Partial<Record<Decision, number>>> = {};
  let requests = 0;

  async function forward(incoming: IncomingMessage, body: Buffer): Promise<UpstreamReply> {
    const headers = { ...incoming.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          protocol: upstream.protocol,
          hostname: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers,
          agent,
        },
        (reply) => {
          const chunks: Buffer[] = [];
          reply.on('data', (chunk: Buffer) => chunks.push(chunk));
          reply.on('end', () =>
            resolve({
              statusCode: reply.statusCode ?? 502,
              headers: reply.headers,
              body: Buffer.concat(chunks),
            }),
          );
          reply.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readAll(incoming);
    const target = String(incoming.headers['x-amz-target'] ?? '');
    const operation = target.split('.').pop() || 'unknown';
    const decision = options.plan(operation);
    requests += 1;
    byDecision[decision] += 1;
    const perOperation = byOperation[operation] ?? {};
    byOperation[operation] = perOperation;
    perOperation[decision] = (perOperation[decision] ?? 0) + 1;

    switch (decision) {
      case 'throttle':
        return sendServiceError(response, service, throttlingError);
      case 'server-error':
        return sendServiceError(response, service, internalServerError(service));
      case 'hang':
        // Accepted and never answered, as in a network brownout: the connection stays open until
        // the proxy stops. It never reaches the engine, so `idle()` does not wait for it.
        abandon.signal.addEventListener('abort', () => incoming.socket.destroy(), { once: true });
        return;
      case 'land-then-drop':
        await forward(incoming, body);
        // The engine has applied the request; the caller never learns it.
        incoming.socket.destroy();
        return;
      case 'delay':
        // Held past the caller's timeout, then sent on: it may land after the caller gave up.
        await sleep(delayMs, undefined, { signal: abandon.signal });
        return reply(response, await forward(incoming, body));
      case 'pass':
        return reply(response, await forward(incoming, body));
    }
  }

  const server = createServer((incoming, response) => {
    response.on('error', () => {});
    const work = handle(incoming, response).catch(() => {
      // The engine is gone or the proxy is stopping: the caller sees a dropped connection.
      incoming.socket.destroy();
    });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // The SDK's sockets come and go as faults destroy them; errors on them are expected.
  server.on('clientError', (_error, socket) => socket.destroy());

  server.listen(options.port ?? 0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;

  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats: () => ({
      requests,
      byDecision: { ...byDecision },
      byOperation: structuredClone(byOperation),
    }),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    stop() {
      stopped ??= (async () => {
        abandon.abort();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
        await Promise.allSettled([...inFlight]);
        agent.destroy();
      })();
      return stopped;
    },
  };
}

interface UpstreamReply {
  readonly statusCode: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

function reply(response: ServerResponse, upstreamReply: UpstreamReply): void {
  // The caller may have timed out and closed the connection while the request was held.
  if (response.destroyed) return;
  const headers = { ...upstreamReply.headers };
  delete headers.connection;
  delete headers['keep-alive'];
  delete headers['transfer-encoding'];
  headers['content-length'] = String(upstreamReply.body.length);
  response.writeHead(upstreamReply.statusCode, headers);
  response.end(upstreamReply.body);
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
