import type { APIGatewayProxyEvent } from 'aws-lambda';
import { Bench } from 'tinybench';
import { MemoryTransactionStore } from '../../scripts/shared/memory-transaction-store.js';
import { median, p99 } from '../../scripts/shared/statistics.js';
import { baselineInMemory, baselineOnDynamoDb } from '../subjects/baseline.js';
import { oursOnDynamoDb, oursWith } from '../subjects/ours.js';
import { apiGatewayEvent } from '../support/api-gateway-event.js';
import { benchKey, freshCallback } from '../support/callbacks.js';
import { inMemoryDynamoDbClient } from '../support/in-memory-dynamodb.js';
import { silenceOutput } from '../support/silence-output.js';
import type { Invoke, SubjectName } from '../support/subject.js';

export const cpuCases = ['new', 'duplicate', 'bad hash', 'unauthorized'] as const;
export type CpuCase = (typeof cpuCases)[number];

/**
 * What stands in for DynamoDB. `in-memory store`: ours on `MemoryTransactionStore` behind its
 * store interface, the baseline on Powertools' persistence layer base class with a `Map` for its
 * four storage calls (and a `Map` for its transaction write): no SDK at all. `SDK in process`:
 * both on the real DynamoDB stores and SDK client, whose HTTP handler answers from memory, so
 * the SDK's own per-request work (marshalling, signing, serializing, parsing) is counted for
 * every request a receiver makes. Refusals never reach DynamoDB, so that setup measures only the
 * deliveries that do.
 */
export const cpuSetups = {
  'in-memory store': cpuCases,
  'SDK in process': ['new', 'duplicate'],
} as const satisfies Record<string, readonly CpuCase[]>;
export type CpuSetup = keyof typeof cpuSetups;

export interface CpuResult {
  readonly setup: CpuSetup;
  readonly subject: SubjectName;
  readonly case: CpuCase;
  readonly medianMicros: number;
  readonly p99Micros: number;
  readonly samples: number;
  /** Statuses seen, to show both receivers took the same path. */
  readonly statuses: readonly number[];
}

export interface CpuOptions {
  readonly setup: CpuSetup;
  readonly iterations: number;
  readonly warmup: number;
  /** Measurement is split into blocks that alternate the two receivers, so drift hits both. */
  readonly blocks: number;
}

/**
 * Process CPU time (user + system, `process.cpuUsage`) of one invocation with the network out.
 * Everything but DynamoDB (middy, parsing, hashing, validation, logging, metrics) runs as in
 * Lambda; log lines are formatted but not written, for both receivers.
 */
export async function measureHandlerCpu(options: CpuOptions): Promise<CpuResult[]> {
  const subjects = subjectsFor(options.setup);
  const cases: readonly CpuCase[] = cpuSetups[options.setup];
  const samples = new Map<string, { micros: number[]; statuses: Set<number> }>();
  const perBlock = Math.max(1, Math.ceil(options.iterations / options.blocks));
  const restore = silenceOutput();
  try {
    for (let block = 0; block < options.blocks; block++) {
      // tinybench times each call with this clock: process CPU time, not wall time.
      const bench = new Bench({
        now: cpuClockMs,
        iterations: perBlock,
        time: 0,
        warmup: block === 0,
        warmupIterations: options.warmup,
        warmupTime: 0,
        retainSamples: true,
        throws: true,
      });
      for (const [subject, invoke] of Object.entries(subjects) as [SubjectName, Invoke][]) {
        for (const kind of cases) {
          const sample = samples.get(`${subject}/${kind}`) ?? { micros: [], statuses: new Set() };
          samples.set(`${subject}/${kind}`, sample);
          // Built (and signed) before the clock starts; single use (see eventsFor).
          const events = await eventsFor(
            kind,
            perBlock + (block === 0 ? options.warmup : 0),
            invoke,
          );
          bench.add(`${subject}/${kind}`, async () => {
            const event = events.pop();
            if (!event) throw new Error(`tinybench ran ${subject}/${kind} more often than planned`);
            sample.statuses.add((await invoke(event)).statusCode);
          });
        }
      }
      for (const task of await bench.run()) {
        const { result } = task;
        if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
        samples
          .get(task.name)
          ?.micros.push(...(result.latency.samples ?? []).map((ms) => ms * 1000));
      }
    }
  } finally {
    restore();
  }
  const results: CpuResult[] = [];
  for (const subject of Object.keys(subjects) as SubjectName[]) {
    for (const kind of cases) {
      const sample = samples.get(`${subject}/${kind}`);
      if (!sample) continue;
      results.push({
        setup: options.setup,
        subject,
        case: kind,
        medianMicros: median(sample.micros),
        p99Micros: p99(sample.micros),
        samples: sample.micros.length,
        statuses: [...sample.statuses],
      });
    }
  }
  return results;
}

function subjectsFor(setup: CpuSetup): Record<SubjectName, Invoke> {
  if (setup === 'in-memory store') {
    return {
      ours: oursWith(new MemoryTransactionStore(), [benchKey]),
      baseline: baselineInMemory([benchKey]),
    };
  }
  const tables = { ours: 'ours', transactions: 'baseline', idempotency: 'idempotency' };
  const client = inMemoryDynamoDbClient({
    [tables.ours]: 'reference',
    [tables.transactions]: 'reference',
    [tables.idempotency]: 'id',
  });
  return {
    ours: oursOnDynamoDb(client, tables.ours, [benchKey]),
    baseline: baselineOnDynamoDb(client, tables, [benchKey]),
  };
}

/**
 * `count` events of one kind, built (and signed) before the clock starts. Events are single use:
 * `http-json-body-parser` replaces the body of the event it is given.
 */
async function eventsFor(
  kind: CpuCase,
  count: number,
  invoke: Invoke,
): Promise<APIGatewayProxyEvent[]> {
  const events: APIGatewayProxyEvent[] = [];
  if (kind === 'duplicate') {
    const body = freshCallback();
    await invoke(apiGatewayEvent(body, { apiKey: benchKey }));
    for (let i = 0; i < count; i++) events.push(apiGatewayEvent(body, { apiKey: benchKey }));
    return events;
  }
  for (let i = 0; i < count; i++) {
    if (kind === 'new') events.push(apiGatewayEvent(freshCallback(), { apiKey: benchKey }));
    if (kind === 'bad hash') {
      events.push(apiGatewayEvent(freshCallback('not-the-key'), { apiKey: benchKey }));
    }
    if (kind === 'unauthorized') {
      events.push(apiGatewayEvent(freshCallback(), { apiKey: 'not-a-key' }));
    }
  }
  return events;
}

/** User plus system CPU time of this process, in milliseconds. */
function cpuClockMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}
