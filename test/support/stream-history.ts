import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { DynamoDBRecord } from 'aws-lambda';
import { expect, vi } from 'vitest';
import { loadStreamConsumerConfig } from '../../lambda/config/config.js';
import { EventBridgePublisher } from '../../lambda/events/event-publisher.js';
import { publishStreamRecords } from '../../lambda/events/publish-stream-records.js';
import { createMetrics } from '../../lambda/observability/powertools-metrics.js';
import { createLogger } from '../../lambda/observability/telemetry.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { createStreamTable, type StreamTable } from './dynamodb-local-stream.js';
import type { TestTable } from './engines.js';
import { type EntryRule, fakeEventBridge } from './fake-eventbridge.js';
import { transaction } from './fixtures.js';
import { recordOf } from './stream-records.js';
import { suiteFixture } from './suite-fixture.js';

/**
 * What replay and redrive publish again, on DynamoDB Local's real stream: a table's history of
 * four transactions an hour apart and a conflicting delivery, its stream records, and the entries
 * the stream consumer itself published for them, to compare theirs with. Only EventBridge (and,
 * for redrive, SQS) are stand-ins, at SDK level: neither can be made to fail one entry, or hold a
 * given message, on demand.
 */

export const bus = 'transactions';
const day = '2026-03-14';
export const at = (time: string) => `${day}T${time}.000Z`;

/** A publisher over a fake EventBridge, with the consumer's retry count and no waiting. */
export function eventBridge(rule?: EntryRule) {
  const fake = fakeEventBridge(rule ? { rule } : {});
  const publisher = new EventBridgePublisher(fake.client, { backoffMs: () => 0 });
  const entries = () => fake.requests.flat();
  return { ...fake, publisher, entries };
}

/** The entries the stream consumer itself publishes for these records. */
async function consumerEntries(records: DynamoDBRecord[]): Promise<PutEventsRequestEntry[]> {
  const fake = eventBridge();
  const { telemetry } = loadStreamConsumerConfig({ EVENT_BUS_NAME: bus });
  const logger = createLogger(telemetry);
  vi.spyOn(logger, 'error').mockImplementation(() => undefined);
  const publish = publishStreamRecords({
    publisher: fake.publisher,
    eventBusName: bus,
    logger,
    metrics: createMetrics(telemetry),
  });
  expect(await publish(records)).toEqual({ batchItemFailures: [] });
  return fake.entries();
}

export const referenceOf = (entry: PutEventsRequestEntry) =>
  (JSON.parse(entry.Detail ?? '{}') as { reference: string }).reference;

export interface StreamHistory {
  readonly table: TestTable;
  readonly streams: DynamoDBStreamsClient;
  readonly streamArn: string;
  /** The id of the stream's only shard. */
  readonly shardId: string;
  /** The stream's five records, oldest first. */
  readonly records: DynamoDBRecord[];
  /** What the stream consumer published for them. */
  readonly consumed: PutEventsRequestEntry[];
  /** The four transactions' references, in the order they were received. */
  readonly references: string[];
}

/**
 * For the calling suite: a fresh table on DynamoDB Local with the history recorded and its stream
 * read before its tests, dropped after them (see test/support/suite-fixture.ts).
 */
export function streamHistory(): StreamHistory {
  return suiteFixture(recordStreamHistory, (recorded) => recorded.drop());
}

async function recordStreamHistory(): Promise<StreamHistory & { drop(): Promise<void> }> {
  const stream = await createStreamTable();
  try {
    return { ...(await record(stream)), drop: stream.drop };
  } catch (error) {
    await stream.drop();
    throw error;
  }
}

async function record(stream: StreamTable): Promise<StreamHistory> {
  const { table, streams, streamArn } = stream;
  const store = new DynamoDbTransactionStore(table.client, table.tableName);
  // Four transactions an hour apart, then a conflicting delivery for the first.
  const times = ['09:00:00', '10:00:00', '11:00:00', '12:00:00'];
  const fields = times.map(() => transaction());
  const references: string[] = [];
  for (const [index, time] of times.entries()) {
    references.push(String(fields[index]?.reference));
    await store.putIfAbsent(recordOf(fields[index] ?? {}, { receivedAt: at(time) }));
  }
  await store.keepConflict(
    recordOf(
      { ...fields[0], amount: 1 },
      { receivedAt: at('10:00:00'), requestId: 'req-conflict' },
    ),
  );
  const shardId = await stream.shardId();
  const records = await stream.records();
  expect(records).toHaveLength(5);
  const consumed = await consumerEntries(records);
  return { table, streams, streamArn, shardId, records, consumed, references };
}
