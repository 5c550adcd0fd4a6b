import autocannon from 'autocannon';
import { benchKey } from './deliveries.js';

export interface PhaseOptions {
  readonly name: string;
  readonly url: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Requests per second over all connections; unlimited when absent. */
  readonly rate?: number;
  /** Stop after this many requests, all answered, instead of on the clock. */
  readonly amount?: number;
  readonly next: () => { reference: string; body: string };
}

export type PhaseResult = Awaited<ReturnType<typeof runPhase>>;

/**
 * One autocannon run against the callback URL, every request a new signed callback. Beyond
 * autocannon's figures it keeps the references answered 204 and the bodies of those that were
 * not (a 503, another status, or no answer), to resend them and check the table.
 */
export async function runPhase({ url, next, ...phase }: PhaseOptions) {
  const startedAt = new Date().toISOString();
  const statuses: Record<string, number> = {};
  const acknowledged = new Set<string>();
  const unacknowledged = new Map<string, string>();
  // One request in flight per connection, so its context names the one answered next.
  const references = new WeakMap<object, string>();
  const result = await autocannon({
    url,
    connections: phase.connections,
    duration: phase.durationSeconds,
    timeout: 10,
    ...(phase.rate ? { overallRate: phase.rate } : {}),
    ...(phase.amount ? { amount: phase.amount } : {}),
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': benchKey },
        setupRequest(request, context) {
          const { reference, body } = next();
          references.set(context, reference);
          unacknowledged.set(reference, body);
          return { ...request, body };
        },
        onResponse(status, _body, context) {
          statuses[status] = (statuses[status] ?? 0) + 1;
          const reference = references.get(context);
          if (status !== 204 || reference === undefined) return;
          acknowledged.add(reference);
          unacknowledged.delete(reference);
        },
      },
    ],
  });
  const { p50, p90, p99, max } = result.latency;
  return {
    ...phase,
    startedAt,
    requestsPerSecond: result.requests.mean,
    requests: result.requests.total,
    latencyMs: { p50, p90, p99, max },
    statuses,
    /** Connection errors (timeouts included), timeouts, and answers other than 2xx. */
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    acknowledged: acknowledged as ReadonlySet<string>,
    unacknowledged: unacknowledged as ReadonlyMap<string, string>,
  };
}
