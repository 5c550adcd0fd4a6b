import autocannon from 'autocannon';

/**
 * One autocannon run against the callback URL, every request a new signed callback. Beyond
 * autocannon's own figures it keeps, per status, how many answers came back and which references
 * were answered 204, to compare with what the table holds afterwards.
 */
export interface PhaseOptions {
  readonly name: string;
  readonly url: string;
  readonly key: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Requests per second over all connections; unlimited when absent. */
  readonly rate?: number;
  /** Stop after this many requests, all answered, instead of on the clock. */
  readonly amount?: number;
  readonly next: () => { reference: string; body: string };
}

export interface PhaseResult {
  readonly startedAt: string;
  readonly name: string;
  readonly durationSeconds: number;
  readonly rate: number | undefined;
  readonly connections: number;
  readonly sent: number;
  readonly throughput: { readonly mean: number; readonly total: number };
  readonly latencyMs: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly statuses: Readonly<Record<string, number>>;
  /** Connection errors (timeouts included), timeouts, and answers other than 2xx. */
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  /** Every reference answered 204 (each request has its own reference). */
  readonly acknowledged: ReadonlySet<string>;
  /** Bodies, by reference, of requests that got no 204 (503, another status, or no answer). */
  readonly unacknowledged: ReadonlyMap<string, string>;
}

export async function runPhase(options: PhaseOptions): Promise<PhaseResult> {
  const startedAt = new Date().toISOString();
  const statuses: Record<string, number> = {};
  const acknowledged = new Set<string>();
  const pending = new Map<string, string>();
  // One request in flight per connection, so its context names the one answered next.
  const references = new WeakMap<object, string>();

  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 10,
    ...(options.rate ? { overallRate: options.rate } : {}),
    ...(options.amount ? { amount: options.amount } : {}),
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': options.key },
        setupRequest(request, context) {
          const { reference, body } = options.next();
          references.set(context, reference);
          pending.set(reference, body);
          return { ...request, body };
        },
        onResponse(status, _body, context) {
          statuses[status] = (statuses[status] ?? 0) + 1;
          const reference = references.get(context);
          if (reference === undefined) return;
          if (status === 204) {
            acknowledged.add(reference);
            pending.delete(reference);
          }
        },
      },
    ],
  });

  return {
    startedAt,
    name: options.name,
    durationSeconds: options.durationSeconds,
    rate: options.rate,
    connections: options.connections,
    sent: acknowledged.size + pending.size,
    throughput: { mean: result.requests.mean, total: result.requests.total },
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    acknowledged,
    unacknowledged: pending,
  };
}
