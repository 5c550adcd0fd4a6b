import { Bench } from 'tinybench';
import { median, quantile } from '../../scripts/gateway/statistics.js';
import type { ResultRow } from '../report.js';
import { apiGatewayEvent, benchKey, freshCallback } from '../support/deliveries.js';
import { silenceOutput } from '../support/silence-output.js';
import { type Invoke, type SubjectName, type Subjects, subjectNames } from '../support/subjects.js';

export const cpuCases = ['new', 'duplicate', 'bad hash', 'unauthorized'] as const;
type CpuCase = (typeof cpuCases)[number];

interface CpuOptions {
  /** What stands in for DynamoDB: '' for in-memory stores, else the engine behind the SDK. */
  readonly setup: string;
  readonly subjects: Subjects;
  readonly cases: readonly CpuCase[];
  readonly iterations: number;
  readonly warmup: number;
  /** Measurement is split into blocks that alternate the two receivers, so drift hits both. */
  readonly blocks: number;
}

export type CpuResult = Awaited<ReturnType<typeof measureHandlerCpu>>[number];

/**
 * Process CPU time (user + system) of one invocation, timed by tinybench on a `process.cpuUsage`
 * clock. Waiting on the network is not CPU time, so with an engine in another process what is
 * counted is the receiver's and the SDK's work. Log lines are formatted but not written.
 */
export async function measureHandlerCpu(options: CpuOptions) {
  const samples = new Map<string, { micros: number[]; statuses: Set<number> }>();
  const perBlock = Math.max(1, Math.ceil(options.iterations / options.blocks));
  const restore = silenceOutput();
  try {
    for (let block = 0; block < options.blocks; block++) {
      const bench = new Bench({
        now: () => {
          const { user, system } = process.cpuUsage();
          return (user + system) / 1000;
        },
        iterations: perBlock,
        time: 0,
        warmup: block === 0,
        warmupIterations: options.warmup,
        warmupTime: 0,
        retainSamples: true,
        throws: true,
      });
      for (const subject of subjectNames) {
        for (const kind of options.cases) {
          const sample = samples.get(`${subject}/${kind}`) ?? { micros: [], statuses: new Set() };
          samples.set(`${subject}/${kind}`, sample);
          const count = perBlock + (block === 0 ? options.warmup : 0);
          const events = await eventsFor(kind, count, options.subjects[subject]);
          bench.add(`${subject}/${kind}`, async () => {
            const event = events.pop();
            if (!event) throw new Error(`tinybench ran ${subject}/${kind} more often than planned`);
            sample.statuses.add((await options.subjects[subject](event)).statusCode);
          });
        }
      }
      for (const { name, result } of await bench.run()) {
        if (result.state !== 'completed') throw new Error(`${name}: ${result.state}`);
        samples.get(name)?.micros.push(...(result.latency.samples ?? []).map((ms) => ms * 1000));
      }
    }
  } finally {
    restore();
  }
  return [...samples].map(([name, { micros, statuses }]) => {
    const [subject, kind] = name.split('/') as [SubjectName, CpuCase];
    const [medianMicros, p99Micros] = [median(micros), quantile(micros, 0.99)];
    return {
      setup: options.setup,
      subject,
      case: kind,
      medianMicros,
      p99Micros,
      statuses: [...statuses],
    };
  });
}

/**
 * `count` events of one kind, built and signed before the clock starts. Single use:
 * `http-json-body-parser` replaces the body of the event it is given.
 */
async function eventsFor(kind: CpuCase, count: number, invoke: Invoke) {
  const duplicate = freshCallback();
  if (kind === 'duplicate') await invoke(apiGatewayEvent(duplicate, { apiKey: benchKey }));
  return Array.from({ length: count }, () => {
    if (kind === 'duplicate') return apiGatewayEvent(duplicate, { apiKey: benchKey });
    const body = freshCallback(kind === 'bad hash' ? 'not-the-key' : benchKey);
    return apiGatewayEvent(body, { apiKey: kind === 'unauthorized' ? 'not-a-key' : benchKey });
  });
}

/** The target is on the in-memory rows: the receiver's own work, no SDK. */
export function cpuRows(results: readonly CpuResult[]): ResultRow[] {
  return results.flatMap((ours) => {
    const baseline = results.find(
      (r) => r.setup === ours.setup && r.subject === 'baseline' && r.case === ours.case,
    );
    if (ours.subject !== 'ours' || !baseline) return [];
    const label = [ours.case, ours.setup].filter(Boolean).join(', ');
    const row = { section: 'Handler CPU per callback', unit: 'µs' } as const;
    const met = ours.medianMicros <= baseline.medianMicros / 2;
    return [
      {
        ...row,
        metric: `${label}, median`,
        ours: ours.medianMicros,
        baseline: baseline.medianMicros,
        ...(ours.setup ? {} : { target: { text: '≤ 0.5× baseline', met } }),
      },
      { ...row, metric: `${label}, p99`, ours: ours.p99Micros, baseline: baseline.p99Micros },
    ];
  });
}
