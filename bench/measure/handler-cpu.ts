import type { APIGatewayProxyEvent } from 'aws-lambda';
import { MemoryTransactionStore } from '../../scripts/shared/memory-transaction-store.js';
import { median, p99 } from '../../scripts/shared/statistics.js';
import { signed, specKey, transaction } from '../../test/support/fixtures.js';
import { baselineInMemory, baselineOnDynamoDb } from '../subjects/baseline.js';
import { oursOnDynamoDb, oursWith } from '../subjects/ours.js';
import { apiGatewayEvent } from '../support/api-gateway-event.js';
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
  const restore = silenceOutput();
  try {
    for (const invoke of Object.values(subjects)) {
      for (const kind of cases) {
        for (const event of await eventsFor(kind, options.warmup, invoke)) await invoke(event);
      }
    }
    const perBlock = Math.max(1, Math.ceil(options.iterations / options.blocks));
    for (let block = 0; block < options.blocks; block++) {
      for (const [subject, invoke] of Object.entries(subjects) as [SubjectName, Invoke][]) {
        for (const kind of cases) {
          const key = `${subject}/${kind}`;
          const sample = samples.get(key) ?? { micros: [], statuses: new Set<number>() };
          samples.set(key, sample);
          for (const event of await eventsFor(kind, perBlock, invoke)) {
            const before = process.cpuUsage();
            const response = await invoke(event);
            const used = process.cpuUsage(before);
            sample.micros.push(used.user + used.system);
            sample.statuses.add(response.statusCode);
          }
        }
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
      ours: oursWith(new MemoryTransactionStore(), [specKey]),
      baseline: baselineInMemory([specKey]),
    };
  }
  const tables = { ours: 'ours', transactions: 'baseline', idempotency: 'idempotency' };
  const client = inMemoryDynamoDbClient({
    [tables.ours]: 'reference',
    [tables.transactions]: 'reference',
    [tables.idempotency]: 'id',
  });
  return {
    ours: oursOnDynamoDb(client, tables.ours, [specKey]),
    baseline: baselineOnDynamoDb(client, tables, [specKey]),
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
    const body = signed(transaction());
    await invoke(apiGatewayEvent(body, { apiKey: specKey }));
    for (let i = 0; i < count; i++) events.push(apiGatewayEvent(body, { apiKey: specKey }));
    return events;
  }
  for (let i = 0; i < count; i++) {
    if (kind === 'new') events.push(apiGatewayEvent(signed(transaction()), { apiKey: specKey }));
    if (kind === 'bad hash') {
      events.push(apiGatewayEvent(signed(transaction(), 'not-the-key'), { apiKey: specKey }));
    }
    if (kind === 'unauthorized') {
      events.push(apiGatewayEvent(signed(transaction()), { apiKey: 'not-a-key' }));
    }
  }
  return events;
}
