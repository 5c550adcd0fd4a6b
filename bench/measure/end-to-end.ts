import { median } from '../../scripts/gateway/statistics.js';
import type { ResultRow } from '../report.js';
import type { Settings } from '../run.js';
import { benchKey, callbackSource } from '../support/deliveries.js';
import { createBenchTables, type Engine, localAwsEnvironment } from '../support/engines.js';
import { type PhaseResult, runPhase } from '../support/load-phase.js';
import { startServer } from '../support/server.js';
import { type SubjectName, subjectNames } from '../support/subjects.js';

type EndToEndResult = Awaited<ReturnType<typeof measureEndToEnd>>[number];

/**
 * Each receiver in its own server process on DynamoDB Local, loaded by autocannon, every request
 * a new signed callback. Short runs alternate the receivers and the medians are reported, so a
 * drifting engine (its tables grow) or a neighbour's burst of work weighs on both alike.
 */
export async function measureEndToEnd(engine: Engine, options: Settings) {
  const tables = await createBenchTables(engine.endpoint);
  const tableEnvironment: Record<SubjectName, Record<string, string>> = {
    ours: { TABLE_NAME: tables.ours },
    baseline: { TABLE_NAME: tables.baseline, IDEMPOTENCY_TABLE_NAME: tables.idempotency },
  };
  /** A fresh server for `subject`, loaded for each duration in turn: the last run is returned. */
  const load = async (subject: SubjectName, durations: number[]) => {
    const server = await startServer(subject, {
      ...localAwsEnvironment,
      ...tableEnvironment[subject],
      AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint,
      CALLBACK_API_KEYS: benchKey,
      POWERTOOLS_LOG_LEVEL: 'INFO',
    });
    let last: PhaseResult | undefined;
    try {
      for (const durationSeconds of durations.filter((seconds) => seconds > 0)) {
        const next = callbackSource(`e2e-${Date.now().toString(36)}`);
        const { connections } = options;
        last = await runPhase({
          name: subject,
          url: server.url,
          connections,
          durationSeconds,
          next,
        });
      }
    } finally {
      await server.stop();
    }
    return last as PhaseResult;
  };
  if (options.engineWarmupSeconds > 0) {
    for (const subject of subjectNames) await load(subject, [options.engineWarmupSeconds]);
  }
  const runs: PhaseResult[] = [];
  for (let round = 0; round < options.loadRounds; round++) {
    for (const subject of round % 2 === 0 ? subjectNames : [...subjectNames].reverse()) {
      runs.push(await load(subject, [options.warmupSeconds, options.durationSeconds]));
    }
  }
  return subjectNames.map((subject) => {
    const mine = runs.filter((run) => run.name === subject);
    const medianOf = (value: (run: PhaseResult) => number) => median(mine.map(value));
    return {
      subject,
      requestsPerSecond: medianOf((run) => run.requestsPerSecond),
      p50Ms: medianOf((run) => run.latencyMs.p50),
      p99Ms: medianOf((run) => run.latencyMs.p99),
      /** Connection errors, timeouts and non-2xx answers, over every run. */
      errors: mine.reduce((sum, run) => sum + run.errors + run.timeouts + run.non2xx, 0),
      requests: mine.reduce((sum, run) => sum + run.requests, 0),
    };
  });
}

export function endToEndRows([ours, baseline]: readonly EndToEndResult[]): ResultRow[] {
  if (!ours || !baseline) return [];
  const row = (metric: string, unit: string, value: (r: EndToEndResult) => number) => ({
    section: 'End to end' as const,
    metric,
    unit,
    ours: value(ours),
    baseline: value(baseline),
  });
  const faster = ours.requestsPerSecond >= baseline.requestsPerSecond * 1.5;
  return [
    {
      ...row('throughput', 'req/s', (r) => r.requestsPerSecond),
      target: { text: '≥ 1.5× baseline', met: faster },
    },
    row('latency p50', 'ms', (r) => r.p50Ms),
    row('latency p99', 'ms', (r) => r.p99Ms),
    {
      ...row('errors (non-2xx, timeouts, connection errors)', 'count', (r) => r.errors),
      target: { text: '= 0', met: ours.errors === 0 },
    },
  ];
}
