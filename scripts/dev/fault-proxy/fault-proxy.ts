/**
 * A fault-injecting HTTP proxy in front of DynamoDB or a Secrets Manager or EventBridge stand-in,
 * reached through `AWS_ENDPOINT_URL_*`: its faults arrive the way AWS's would, on the network,
 * below the SDK's retries, timeouts and error parsing.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Decision, decisions, type FaultPlan } from './fault-plan.js';

export type Service = 'dynamodb' | 'secretsmanager' | 'eventbridge';
/** Each service's 500: the SDK reads `__type` to decide whether to retry, as against AWS. */
export const serverErrorTypes: Record<Service, string> = {
  dynamodb: 'InternalServerError',
  secretsmanager: 'InternalServiceError',
  eventbridge: 'InternalException',
};

export interface FaultProxyOptions {
  readonly upstream: string;
  readonly plan: FaultPlan;
  readonly service?: Service;
  /** Must outlast the SDK's attempt timeout for a `delay` to be one (default 1,000 ms). */
  readonly delayMs?: number;
  readonly port?: number;
}

type Counts = Partial<Record<Decision, number>>;

export interface RunningFaultProxy {
  /** `http://127.0.0.1:<port>`, for the service's `AWS_ENDPOINT_URL_*`. */
  readonly endpoint: string;
  /** Requests seen, by what was done to them, in all and per operation. */
  stats(): { requests: number; byDecision: Counts; byOperation: Record<string, Counts> };
  /** Resolves once no request is held or forwarded: every delayed write has landed or not. */
  idle(): Promise<void>;
  /** Stops listening, drops open connections and abandons held requests; safe to repeat. */
  stop(): Promise<void>;
}

type Reply = { statusCode: number; headers: IncomingHttpHeaders; body: Buffer };

export async function startFaultProxy(options: FaultProxyOptions): Promise<RunningFaultProxy> {
  const upstream = new URL(options.upstream);
  const service = options.service ?? 'dynamodb';
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  const abandon = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const counts = Object.fromEntries(decisions.map((decision) => [decision, 0]));
  const byDecision = counts as Record<Decision, number>;
  const byOperation: Record<string, Counts> = {};

  function forward(incoming: IncomingMessage, body: Buffer): Promise<Reply> {
    const { hostname, port, protocol } = upstream;
    const headers = withoutHopHeaders(incoming.headers);
    const target = { hostname, port, protocol, method: incoming.method, path: incoming.url };
    return new Promise((resolve, reject) => {
      const outgoing = request({ ...target, headers, agent }, (reply) => {
        const { statusCode = 502, headers } = reply;
        buffer(reply).then((body) => resolve({ statusCode, headers, body }), reject);
      });
      outgoing.on('error', reject).end(body);
    });
  }

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await buffer(incoming);
    const target = String(incoming.headers['x-amz-target']); // e.g. DynamoDB_20120810.PutItem
    const operation = /\.(\w+)$/.exec(target)?.[1] ?? 'unknown';
    const decision = options.plan(operation);
    byDecision[decision] += 1;
    const perOperation = byOperation[operation] ?? {};
    byOperation[operation] = perOperation;
    perOperation[decision] = (perOperation[decision] ?? 0) + 1;

    if (decision === 'throttle' || decision === 'server-error') {
      return reply(response, errorReply(decision));
    }
    if (decision === 'hang') return; // open until `stop()`; `idle()` does not wait for it
    if (decision === 'delay')
      await sleep(options.delayMs ?? 1_000, null, { signal: abandon.signal });
    const upstreamReply = await forward(incoming, body);
    if (decision === 'land-then-drop') incoming.socket.destroy();
    else reply(response, upstreamReply);
  }

  /** Written as the service writes it: DynamoDB alone speaks JSON 1.0 and prefixes its types. */
  function errorReply(fault: 'throttle' | 'server-error'): Reply {
    const throttle = fault === 'throttle';
    const dynamodb = service === 'dynamodb';
    const type = throttle ? 'ThrottlingException' : serverErrorTypes[service];
    const body = JSON.stringify({
      __type: `${dynamodb ? 'com.amazonaws.dynamodb.v20120810#' : ''}${type}`,
      message: throttle ? 'Rate of requests exceeds the allowed throughput.' : 'Internal error',
    });
    const headers = { 'content-type': `application/x-amz-json-1.${dynamodb ? 0 : 1}` };
    return { statusCode: throttle ? 400 : 500, headers, body: Buffer.from(body) };
  }

  const server = createServer((incoming, response) => {
    response.on('error', () => {});
    // The engine is gone or the proxy is stopping: the caller sees a dropped connection.
    const work = handle(incoming, response).catch(() => {
      incoming.socket.destroy();
    });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  // The SDK's sockets come and go as faults destroy them; errors on them are expected.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject).listen(options.port ?? 0, '127.0.0.1', resolve);
  });

  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats: () => ({
      requests: Object.values(byDecision).reduce((sum, count) => sum + count, 0),
      byDecision: { ...byDecision },
      byOperation: structuredClone(byOperation),
    }),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async stop() {
      abandon.abort();
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await Promise.allSettled([closed, ...inFlight]);
      agent.destroy();
    },
  };
}

function reply(response: ServerResponse, { statusCode, headers, body }: Reply): void {
  // The caller may have timed out and closed the connection while the request was held.
  if (response.destroyed) return;
  const { 'transfer-encoding': _, ...rest } = withoutHopHeaders(headers);
  response.writeHead(statusCode, { ...rest, 'content-length': String(body.length) });
  response.end(body);
}

function withoutHopHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { connection: _, 'keep-alive': __, ...rest } = headers;
  return rest;
}
