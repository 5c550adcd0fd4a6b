import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import { expect, it } from 'vitest';
import type { EventBridgePublisher } from '../../../../lambda/events/event-publisher.js';
import { transactionItem } from '../../../../lambda/storage/transaction-item.js';
import {
  type MessageOutcome,
  redriveQueue,
} from '../../../../scripts/operations/events/redrive-queue.js';
import { describeOnStreams } from '../../../support/dynamodb-local-stream.js';
import { transaction } from '../../../support/fixtures.js';
import { putBatch } from '../../../support/put-batch.js';
import {
  at,
  bus,
  eventBridge,
  referenceOf,
  streamHistory,
} from '../../../support/stream-history.js';
import { recordOf } from '../../../support/stream-records.js';

/**
 * redrive on DynamoDB Local: each dead-letter message's batch is read again from the real stream
 * (or, once the stream no longer holds it, from the table) and what it publishes is compared with
 * what the stream consumer itself published (test/support/stream-history.ts). SQS is a stand-in at
 * SDK level: it cannot be made to hold a given message on demand.
 */

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

describeOnStreams('replay and redrive, on DynamoDB Local', () => {
  const history = streamHistory();

  /** Drains the fake queue with the real stream and table, publishing through `publisher`. */
  async function redrive(queue: ReturnType<typeof fakeQueue>, publisher: EventBridgePublisher) {
    const { streams, table } = history;
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
    const { records, shardId, streamArn } = history;
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

  it('redrive re-reads each batch from the stream, publishes it as the consumer did, and deletes it', async () => {
    const { consumed } = history;
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
    const { references } = history;
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
    const { streamArn, consumed, references } = history;
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
  it('keeps a batch whose last record the stream never reaches, and says it was not redriven', async () => {
    const { records } = history;
    const last = BigInt(records[4]?.dynamodb?.SequenceNumber ?? '0');
    const queue = fakeQueue([deadLetter(3, 3, { endSequenceNumber: String(last * 10n) })]);
    const bridge = eventBridge();

    const outcomes = await redrive(queue, bridge.publisher);

    expect(outcomes).toEqual([
      expect.objectContaining({
        source: 'none',
        deleted: false,
        problem: `the stream ended before the batch's last record ${last * 10n}; it was not redriven`,
        // A failure, not its content: a later run may find the stream has caught up.
        keptFor: 'failure',
      }),
    ]);
    expect(bridge.entries()).toEqual([]);
    expect(queue.remaining()).toEqual(['m0']);
  });

  it('leaves a message that is not JSON, or has no body or id, in the queue, for its content', async () => {
    const { streams, table } = history;
    const messages: Message[] = [
      { ReceiptHandle: 'r-1' },
      { MessageId: 'm2', ReceiptHandle: 'r-2', Body: 'not json' },
    ];
    const madeVisible: (string | undefined)[] = [];
    const sqs = {
      async send(command: unknown) {
        if (command instanceof ReceiveMessageCommand) return { Messages: messages.splice(0) };
        if (command instanceof ChangeMessageVisibilityCommand) {
          madeVisible.push(command.input.ReceiptHandle);
          return {};
        }
        throw new Error('unexpected SQS command');
      },
    };

    // Nobody listening for each outcome: the counts alone come back.
    const counts = await redriveQueue(
      {
        streams,
        client: table.client,
        tableName: table.tableName,
        sqs,
        publisher: eventBridge().publisher,
        eventBusName: bus,
      },
      { queueUrl: 'https://sqs.example/dlq' },
    );

    expect(counts).toEqual({ messages: 2, deleted: 0 });
    expect(madeVisible).toEqual(['r-1', 'r-2']);
  });
  it('keeps a batch whose records the table no longer holds as valid events, for their content', async () => {
    const { streamArn, table } = history;
    // An item damaged by hand, received hours after the recorded history: no currency.
    const { currency: _currency, ...damaged } = transactionItem(
      recordOf(transaction(), { receivedAt: at('15:00:00') }),
    );
    await putBatch(table.client, table.tableName, [damaged]);
    const gone = `${streamArn.slice(0, streamArn.lastIndexOf('/') + 1)}2020-01-01T00:00:00.000`;
    const queue = fakeQueue([
      deadLetter(1, 1, {
        streamArn: gone,
        approximateArrivalOfFirstRecord: at('15:00:01'),
        approximateArrivalOfLastRecord: at('15:00:02'),
      }),
    ]);
    const bridge = eventBridge();

    const outcomes = await redrive(queue, bridge.publisher);

    expect(outcomes).toEqual([
      expect.objectContaining({
        source: 'table',
        deleted: false,
        // Its content, not a failure: running again will not help (redrive exits 1).
        keptFor: 'content',
      }),
    ]);
    expect(outcomes[0]?.outcome?.unpublishable).toEqual([
      { record: damaged.reference?.S, problem: expect.stringMatching(/not a valid transaction/) },
    ]);
    expect(queue.remaining()).toEqual(['m0']);
  });
});
