import { median } from '../../scripts/shared/statistics.js';
import { benchKey, callbackSource } from '../support/callbacks.js';
import {
  createBenchTables,
  type Engine,
  engineClient,
  localAwsEnvironment,
} from '../support/engines.js';
import { runPhase } from '../support/load-phase.js';
import { startServer } from '../support/server-process.js';
import type { SubjectName } from '../support/subject.js';

export interface EndToEndOptions {
  readonly engine: Engine;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /**
   * Unmeasured load on each receiver before the first measured run: DynamoDB Local is a JVM
   * whose JIT keeps speeding it up for a minute or more, which the first measured runs would
   * otherwise pay for.
   */
  readonly engineWarmupSeconds: number;
  /** Measured runs per receiver, in the order ours, baseline, baseline, ours, ... */
  readonly rounds: number;
}

export interface EndToEndResult {
  readonly subject: SubjectName;
  /** Medians over the rounds. */
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Summed over the rounds: connection errors, timeouts and non-2xx answers. */
  readonly errors: number;
  readonly requests: number;
  /** Every measured run, in the order they ran. */
  readonly runs: readonly LoadRun[];
}

/**
 * Each receiver in its own server process on DynamoDB Local, loaded by autocannon at a fixed
 * number of connections for a fixed time. Every request is a new callback (fresh reference,
 * signed), so each one costs the receiver its full write path. Short runs alternate ours,
 * baseline, baseline, ours, ... and the medians are reported, so that a drifting engine (its
 * tables grow) or a neighbour's burst of work weighs on both alike.
 */
export async function measureEndToEnd(options: EndToEndOptions): Promise<EndToEndResult[]> {
  const client = engineClient(options.engine.endpoint);
  const tables = await createBenchTables(client).finally(() => client.destroy());
  const environments: Record<SubjectName, Record<string, string>> = {
    ours: { TABLE_NAME: tables.ours },
    baseline: {
      TABLE_NAME: tables.baseline.transactions,
      IDEMPOTENCY_TABLE_NAME: tables.baseline.idempotency,
    },
  };
  const runs: Record<SubjectName, LoadRun[]> = { ours: [], baseline: [] };
  const order: SubjectName[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const pair: SubjectName[] = ['ours', 'baseline'];
    order.push(...(round % 2 === 0 ? pair : pair.reverse()));
  }
  const serve = (subject: SubjectName) =>
    startServer(subject, {
      ...localAwsEnvironment,
      ...environments[subject],
      AWS_ENDPOINT_URL_DYNAMODB: options.engine.endpoint,
      CALLBACK_API_KEYS: benchKey,
      POWERTOOLS_LOG_LEVEL: 'INFO',
    });
  if (options.engineWarmupSeconds > 0) {
    for (const subject of ['ours', 'baseline'] as const) {
      const server = await serve(subject);
      try {
        await load(server.url, options.connections, options.engineWarmupSeconds);
      } finally {
        await server.stop();
      }
    }
  }
  for (const subject of order) {
    const server = await serve(subject);
    try {
      if (options.warmupSeconds > 0) {
        await load(server.url, options.connections, options.warmupSeconds);
      }
      runs[subject].push(await load(server.url, options.connections, options.durationSeconds));
    } finally {
      await server.stop();
    }
  }
  return (['ours', 'baseline'] as const).map((subject) => ({
    subject,
    requestsPerSecond: median(runs[subject].map((run) => run.requestsPerSecond)),
    p50Ms: median(runs[subject].map((run) => run.p50Ms)),
    p99Ms: median(runs[subject].map((run) => run.p99Ms)),
    errors: runs[subject].reduce((sum, run) => sum + run.errors, 0),
    requests: runs[subject].reduce((sum, run) => sum + run.requests, 0),
    runs: runs[subject],
  }));
}

export interface LoadRun {
  readonly startedAt: string;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly requests: number;
}

/** One autocannon run through the shared load driver, every request a new signed callback. */
async function load(url: string, connections: number, seconds: number): Promise<LoadRun> {
  const phase = await runPhase({
    name: 'end-to-end',
    url,
    key: benchKey,
    connections,
    durationSeconds: seconds,
    next: callbackSource(`e2e-${Date.now().toString(36)}`),
  });
  return {
    startedAt: phase.startedAt,
    requestsPerSecond: phase.throughput.mean,
    p50Ms: phase.latencyMs.p50,
    p99Ms: phase.latencyMs.p99,
    errors: phase.errors + phase.timeouts + phase.non2xx,
    requests: phase.throughput.total,
  };
}
