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
  readonly errors: number;
  readonly timeouts: number;
  /** Every reference answered 204 (each request has its own reference). */
  readonly acknowledged: ReadonlySet<string>;
  /** Bodies, by reference, of requests that got no 204 (503, another status, or no answer). */
  readonly unacknowledged: ReadonlyMap<string, string>;
}

/** The part of autocannon's options and result this uses; the package ships no types. */
interface Context {
  reference?: string;
}
interface Request {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: Request, context: Context) => Request;
  onResponse?: (status: number, body: string, context: Context) => void;
}
interface Histogram {
  mean: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  overallRate?: number;
  amount?: number;
  timeout?: number;
  requests: Request[];
}) => Promise<AutocannonResult>;

export async function runPhase(options: PhaseOptions): Promise<PhaseResult> {
  const statuses: Record<string, number> = {};
  const acknowledged = new Set<string>();
  const pending = new Map<string, string>();
  const run = autocannon as unknown as Autocannon;

  const result = await run({
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
          // One request in flight per connection, so the context names the one answered next.
          context.reference = reference;
          pending.set(reference, body);
          return { ...request, body };
        },
        onResponse(status, _body, context) {
          statuses[status] = (statuses[status] ?? 0) + 1;
          const reference = context.reference;
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
    acknowledged,
    unacknowledged: pending,
  };
}
