import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadStreamConsumerConfig } from '../../../lambda/config/config.js';
import { EventBridgePublisher } from '../../../lambda/events/event-publisher.js';
import { publishStreamRecords } from '../../../lambda/events/publish-stream-records.js';
import { createMetrics } from '../../../lambda/observability/powertools-metrics.js';
import { createLogger } from '../../../lambda/observability/telemetry.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { type MessageOutcome, redriveQueue } from '../../../scripts/redrive/redrive-queue.js';
import { type ReplayProblem, replayTransactions } from '../../../scripts/replay/replay.js';
import { timeWindow } from '../../../scripts/table/time-window.js';
import {
  createTestTable,
  type Engine,
  engineEndpoint,
  engines,
  type TestTable,
  testCredentials,
  testRegion,
} from '../../support/engines.js';
import { type EntryRule, fakeEventBridge } from '../../support/fake-eventbridge.js';
import { transaction } from '../../support/fixtures.js';
import { recordOf } from '../../support/stream-records.js';
import { readStream } from '../../support/table-stream.js';

/**
 * replay and redrive on DynamoDB Local's real stream: what they publish is compared with what the
 * stream consumer itself publishes for the same records. Only EventBridge and SQS are stand-ins
 * (SDK level): neither can be made to fail one entry, or hold a given message, on demand.
 */
const streamEngine: Engine = 'dynamodb-local';
const hasStreams = engines.includes(streamEngine);
if (!hasStreams)
  console.warn('SKIPPED: replay/redrive tests need DynamoDB Local (Java) for streams.');

const bus = 'transactions';
const day = '2026-03-14';
const at = (time: string) => `${day}T${time}.000Z`;

/** An SDK-level stand-in for the dead-letter queue: receive, delete, change visibility. */
function fakeQueue(bodies: readonly string[]) {
  const messages = bodies.map((body, index) => ({ id: `m${index}`, body, visible: true }));
  const deleted: string[] = [];
  const sqs = {
    async send(command: unknown) {
      if (command instanceof ReceiveMessageCommand) {
        const count = command.input.MaxNumberOfMessages ?? 1;
        const batch = messages.filter((message) => message.visible).slice(0, count);
        for (const message of batch) message.visible = false;
        const Messages: Message[] = batch.map((message) => ({
          MessageId: message.id,
          ReceiptHandle: `receipt-${message.id}`,
          Body: message.body,
        }));
        return { Messages };
      }
      const handle = (command as { input: { ReceiptHandle?: string } }).input.ReceiptHandle;
      const index = messages.findIndex((message) => `receipt-${message.id}` === handle);
      const [message] = index === -1 ? [] : messages.slice(index, index + 1);
      if (message === undefined) throw new Error(`unknown receipt handle ${handle}`);
      if (command instanceof DeleteMessageCommand) {
        deleted.push(message.id);
        messages.splice(index, 1);
      } else if (command instanceof ChangeMessageVisibilityCommand) {
        message.visible = command.input.VisibilityTimeout === 0;
      } else throw new Error('unexpected SQS command');
      return {};
    },
  };
  return { sqs, deleted, remaining: () => messages.map((message) => message.id) };
}

/** A publisher over a fake EventBridge, with the consumer's retry count and no waiting. */
function eventBridge(rule?: EntryRule) {
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

const referenceOf = (entry: PutEventsRequestEntry) =>
  (JSON.parse(entry.Detail ?? '{}') as { reference: string }).reference;

describe.skipIf(!hasStreams)('replay and redrive, on DynamoDB Local', () => {
  let table: TestTable;
  let streams: DynamoDBStreamsClient;
  let streamArn: string;
  let shardId: string;
  let records: DynamoDBRecord[];
  let consumed: PutEventsRequestEntry[];
  const references: string[] = [];

  beforeAll(async () => {
    table = await createTestTable(streamEngine);
    streams = new DynamoDBStreamsClient({
      endpoint: engineEndpoint(streamEngine),
      region: testRegion,
      credentials: testCredentials,
    });
    const store = new DynamoDbTransactionStore(table.client, table.tableName);
    // Four transactions an hour apart, then a conflicting delivery for the first.
    const times = ['09:00:00', '10:00:00', '11:00:00', '12:00:00'];
    const fields = times.map(() => transaction());
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
    const { Table } = await table.client.send(
      new DescribeTableCommand({ TableName: table.tableName }),
    );
    streamArn = Table?.LatestStreamArn ?? '';
    const { StreamDescription } = await streams.send(
      new DescribeStreamCommand({ StreamArn: streamArn }),
    );
    shardId = StreamDescription?.Shards?.[0]?.ShardId ?? '';
    records = await readStream(streams, streamArn);
    expect(records).toHaveLength(5);
    consumed = await consumerEntries(records);
  });
  afterAll(async () => {
    streams?.destroy();
    await table?.drop();
  });

  /** Drains the fake queue with the real stream and table, publishing through `publisher`. */
  async function redrive(queue: ReturnType<typeof fakeQueue>, publisher: EventBridgePublisher) {
    const dependencies = { streams, client: table.client, tableName: table.tableName };
    const outcomes: MessageOutcome[] = [];
    const counts = await redriveQueue(
      { ...dependencies, sqs: queue.sqs, publisher, eventBusName: bus },
      { queueUrl: 'https://sqs.example/dlq' },
      (outcome) => {
        outcomes.push(outcome);
      },
    );
    expect(counts).toEqual({
      messages: outcomes.length,
      deleted: outcomes.filter((outcome) => outcome.deleted).length,
    });
    return outcomes;
  }

  /** Lambda's on-failure message for records [first, last] of the stream. */
  function deadLetter(first: number, last: number, overrides: Record<string, string> = {}) {
    const sequence = (index: number) => records[index]?.dynamodb?.SequenceNumber ?? '';
    return JSON.stringify({
      requestContext: { condition: 'RetryAttemptsExhausted' },
      version: '1.0',
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: sequence(first),
        endSequenceNumber: sequence(last),
        approximateArrivalOfFirstRecord: at('09:00:01'),
        approximateArrivalOfLastRecord: at('09:00:02'),
        batchSize: last - first + 1,
        streamArn,
        ...overrides,
      },
    });
  }

  it('replay by reference publishes the very entries the stream consumer published', async () => {
    const bridge = eventBridge();
    const problems: ReplayProblem[] = [];
    const handled: number[] = [];
    const summary = await replayTransactions(
      {
        client: table.client,
        tableName: table.tableName,
        publisher: bridge.publisher,
        eventBusName: bus,
      },
      { references: [references[2] as string, 'never-recorded', references[0] as string] },
      (problem) => {
        problems.push(problem);
      },
      (count) => handled.push(count),
    );

    const expected = [references[2], references[0]].map((reference) =>
      consumed.find(
        (entry) => entry.DetailType === 'Transaction Completed' && referenceOf(entry) === reference,
      ),
    );
    expect(bridge.entries()).toEqual(expected);
    expect(summary).toEqual({ published: 2, failed: 0, unpublishable: 0, notFound: 1 });
    expect(problems).toEqual([
      { kind: 'notFound', reference: 'never-recorded', problem: 'no recorded transaction' },
    ]);
    // Progress counts every reference asked for, found or not.
    expect(handled).toEqual([3]);
  });

  it('replay by window publishes what was received in it, and says what failed', async () => {
    const healthy = eventBridge();
    const window = timeWindow(at('10:00:00'), at('12:00:00'));
    const deps = { client: table.client, tableName: table.tableName, eventBusName: bus };

    let handled = 0;
    const summary = await replayTransactions(
      { ...deps, publisher: healthy.publisher },
      { window },
      undefined,
      (count) => {
        handled += count;
      },
    );
    expect(handled).toBe(2);
    expect(healthy.entries().map(referenceOf).sort()).toEqual(
      [references[1], references[2]].sort(),
    );
    for (const entry of healthy.entries()) expect(consumed).toContainEqual(entry);
    expect(summary.published).toBe(2);

    const failing = eventBridge(() => 'InternalFailure');
    const problems: ReplayProblem[] = [];
    const failed = await replayTransactions(
      { ...deps, publisher: failing.publisher },
      { window },
      (problem) => {
        problems.push(problem);
      },
    );
    expect(failed).toMatchObject({ published: 0, failed: 2 });
    expect(problems.map((p) => (p.kind === 'failed' ? p.reference : p.kind)).sort()).toEqual(
      [references[1], references[2]].sort(),
    );
  });

  it('redrive re-reads each batch from the stream, publishes it as the consumer did, and deletes it', async () => {
    const queue = fakeQueue([deadLetter(0, 1), deadLetter(2, 4)]);
    const bridge = eventBridge();

    const outcomes = await redrive(queue, bridge.publisher);

    expect(outcomes.map((o) => [o.source, o.deleted])).toEqual([
      ['stream', true],
      ['stream', true],
    ]);
    expect(bridge.entries()).toEqual(consumed);
    expect(queue.remaining()).toEqual([]);
  });

  it('keeps a message whose records were not all published, deletes the others, and drains on the next run', async () => {
    const queue = fakeQueue([deadLetter(0, 1), deadLetter(2, 3), deadLetter(3, 3)]);
    const stuck = references[2];
    const failing = eventBridge((detail) =>
      detail.reference === stuck ? 'InternalFailure' : undefined,
    );
    const first = await redrive(queue, failing.publisher);

    expect(first.map((o) => o.deleted)).toEqual([true, false, true]);
    // Kept for a failed publish: the next run may pass (redrive exits 3, not 1).
    expect(first[1]?.keptFor).toBe('failure');
    expect(queue.deleted).toEqual(['m0', 'm2']);
    // Nothing was deleted that was not published: every record of a deleted message is on the bus.
    const onBus = new Set(failing.published);
    for (const deletedId of queue.deleted) {
      const outcome = first.find((o) => o.messageId === deletedId);
      for (const { reference } of outcome?.outcome?.published ?? [])
        expect(onBus.has(reference)).toBe(true);
      expect(outcome?.outcome?.failed).toEqual([]);
    }
    expect(first[1]?.outcome?.failed.map((f) => f.reference)).toEqual([stuck]);
    expect(onBus.has(stuck as string)).toBe(false);

    // Fixed: the next run finds only the kept message, at once, and drains it.
    const healthy = eventBridge();
    const second = await redrive(queue, healthy.publisher);
    expect(second.map((o) => [o.messageId, o.deleted])).toEqual([['m1', true]]);
    expect(healthy.entries().map(referenceOf)).toEqual([references[2], references[3]]);
    expect(queue.remaining()).toEqual([]);
  });

  it('reads the table for a batch the stream no longer holds, transactions and conflicts received around it', async () => {
    const gone = `${streamArn.slice(0, streamArn.lastIndexOf('/') + 1)}2020-01-01T00:00:00.000`;
    const queue = fakeQueue([
      deadLetter(1, 1, {
        streamArn: gone,
        approximateArrivalOfFirstRecord: at('10:00:01'),
        approximateArrivalOfLastRecord: at('10:00:02'),
      }),
    ]);
    const bridge = eventBridge();

    const outcomes = await redrive(queue, bridge.publisher);

    expect(outcomes.map((o) => [o.source, o.deleted])).toEqual([['table', true]]);
    // The transaction received at 10:00 and the conflicting delivery kept at 10:00, with the
    // consumer's own entries for them.
    expect(bridge.entries().map((entry) => [entry.DetailType, referenceOf(entry)])).toEqual([
      ['Transaction Completed', references[1]],
      ['Transaction Conflict', references[0]],
    ]);
    for (const entry of bridge.entries()) expect(consumed).toContainEqual(entry);
  });

  it('leaves a message that is not a stream batch in the queue', async () => {
    const queue = fakeQueue(['{"something":"else"}']);
    const outcomes = await redrive(queue, eventBridge().publisher);

    expect(outcomes).toEqual([
      expect.objectContaining({
        deleted: false,
        problem: expect.stringContaining('DDBStreamBatchInfo'),
        // Kept for its content: running again will not help (redrive exits 1).
        keptFor: 'content',
      }),
    ]);
    expect(queue.remaining()).toEqual(['m0']);
  });
});
