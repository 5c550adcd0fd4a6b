import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { EventBridgePublisher } from '../../../lambda/events/event-publisher.js';
import { conflictItem, transactionItem } from '../../../lambda/storage/transaction-item.js';
import { type FakeEventBridgeOptions, fakeEventBridge } from '../../support/fake-eventbridge.js';
import { lambdaContext, transaction } from '../../support/fixtures.js';
import { timerTracker } from '../../support/live-timers.js';
import { streamConsumerWith } from '../../support/stream-consumer.js';
import { recordOf, streamRecord } from '../../support/stream-records.js';

/** The stream consumer as lambda/stream-consumer.ts wires it, around a fake EventBridge. */
function consumer(options: FakeEventBridgeOptions = {}) {
  const eventBridge = fakeEventBridge(options);
  const publisher = new EventBridgePublisher(eventBridge.client, { backoffMs: () => 0 });
  const { handler, errors } = streamConsumerWith(publisher);
  const invoke = (records: DynamoDBRecord[]) =>
    handler({ Records: records } satisfies DynamoDBStreamEvent, lambdaContext());
  return { invoke, eventBridge, errors };
}

function inserts(count: number, prefix: string): DynamoDBRecord[] {
  return Array.from({ length: count }, (_, index) =>
    streamRecord(
      'INSERT',
      transactionItem(recordOf(transaction({ reference: `${prefix}-${index}` }))),
    ),
  );
}

const sequenceNumbers = (records: readonly DynamoDBRecord[]) =>
  records.map((record) => ({ itemIdentifier: record.dynamodb?.SequenceNumber }));

describe('stream consumer', () => {
  it('publishes one event per first insert, and none for modifies and removes', async () => {
    const { invoke, eventBridge } = consumer();
    const [first, second] = inserts(2, 'ok');
    const item = transactionItem(recordOf(transaction({ reference: 'ok-touched' })));
    const records = [
      first,
      streamRecord('MODIFY', item),
      second,
      streamRecord('REMOVE', item),
    ] as DynamoDBRecord[];

    const response = await invoke(records);

    expect(response).toEqual({ batchItemFailures: [] });
    expect(eventBridge.published).toEqual(['ok-0', 'ok-1']);
  });

  it('sends at most ten entries per PutEvents request, in stream order', async () => {
    const { invoke, eventBridge } = consumer();

    await invoke(inserts(23, 'many'));

    expect(eventBridge.requests.map((entries) => entries.length)).toEqual([10, 10, 3]);
    expect(eventBridge.published).toEqual(
      Array.from({ length: 23 }, (_, index) => `many-${index}`),
    );
  });

  it('reports the failed entry and every record after it, and sends nothing past the failed request', async () => {
    const { invoke, eventBridge, errors } = consumer({
      rule: (detail) => (detail.reference === 'batch-3' ? 'InternalFailure' : undefined),
    });
    const records = inserts(15, 'batch');

    const response = await invoke(records);

    // Lambda resumes from the lowest reported sequence number: batch-3 and all that follow.
    expect(response.batchItemFailures).toEqual(sequenceNumbers(records.slice(3)));
    // The first request's other nine are on the bus; the second request was never sent.
    expect(eventBridge.published).toEqual(
      ['0', '1', '2', '4', '5', '6', '7', '8', '9'].map((n) => `batch-${n}`),
    );
    expect(eventBridge.requests.flat().some((entry) => entry.Detail?.includes('batch-10'))).toBe(
      false,
    );
    expect(errors).toHaveBeenCalledWith('event not published', {
      sequenceNumber: records[3]?.dynamodb?.SequenceNumber,
      reference: 'batch-3',
      detailType: 'Transaction Completed',
      errorCode: 'InternalFailure',
    });
  });

  it('re-sends only a throttled entry, so a passing hiccup fails nothing and publishes each once', async () => {
    const { invoke, eventBridge } = consumer({
      rule: (detail, call) =>
        detail.reference === 'retry-1' && call === 1 ? 'ThrottlingException' : undefined,
    });

    const response = await invoke(inserts(3, 'retry'));

    expect(response.batchItemFailures).toEqual([]);
    expect(eventBridge.requests.map((entries) => entries.length)).toEqual([3, 1]);
    expect(eventBridge.published.sort()).toEqual(['retry-0', 'retry-1', 'retry-2']);
  });

  it('does not re-send an entry EventBridge refuses for good', async () => {
    const { invoke, eventBridge } = consumer({
      rule: (detail) => (detail.reference === 'denied-0' ? 'AccessDeniedException' : undefined),
    });
    const records = inserts(2, 'denied');

    const response = await invoke(records);

    expect(eventBridge.requests).toHaveLength(1);
    expect(response.batchItemFailures).toEqual(sequenceNumbers(records));
  });

  it('reports from the first record of a request whose call failed outright', async () => {
    const { invoke, eventBridge } = consumer({ throwOnCall: 2 });
    const records = inserts(12, 'down');

    const response = await invoke(records);

    expect(response.batchItemFailures).toEqual(sequenceNumbers(records.slice(10)));
    expect(eventBridge.published).toHaveLength(10);
  });

  it('publishes the records before an unpublishable one and reports it and the rest', async () => {
    const { invoke, eventBridge, errors } = consumer();
    const broken = transactionItem(recordOf(transaction({ reference: 'bad' })));
    delete broken.amount;
    const records = [
      ...inserts(2, 'before'),
      streamRecord('INSERT', broken),
      ...inserts(2, 'after'),
    ];

    const response = await invoke(records);

    expect(eventBridge.published).toEqual(['before-0', 'before-1']);
    expect(response.batchItemFailures).toEqual(sequenceNumbers(records.slice(2)));
    expect(errors).toHaveBeenCalledWith(
      'stream record cannot be published',
      expect.objectContaining({
        sequenceNumber: records[2]?.dynamodb?.SequenceNumber,
        problem: expect.stringContaining('amount: is required'),
      }),
    );
  });

  it('publishes a conflict as a Transaction Conflict event beside the completed ones', async () => {
    const { invoke, eventBridge } = consumer();
    const conflicting = recordOf(transaction({ reference: 'claimed', amount: 99 }));

    await invoke([...inserts(1, 'plain'), streamRecord('INSERT', conflictItem(conflicting))]);

    expect(eventBridge.requests.flat().map((entry) => [entry.DetailType, entry.Source])).toEqual([
      ['Transaction Completed', 'callback-receiver'],
      ['Transaction Conflict', 'callback-receiver'],
    ]);
  });

  it('fails the whole invocation, so Lambda retries the batch, when an image holds an attribute type it does not know', async () => {
    const { invoke, eventBridge } = consumer();
    const item = transactionItem(recordOf(transaction({ reference: 'odd-type' })));
    item.amount = { X: '1' } as never;

    await expect(invoke([streamRecord('INSERT', item)])).rejects.toThrow(
      'Unsupported type passed: X',
    );
    expect(eventBridge.published).toEqual([]);
  });

  it('fails the whole invocation when a failed record has no sequence number to report', async () => {
    const { invoke } = consumer({ rule: () => 'InternalFailure' });
    const records = inserts(1, 'unnumbered');
    for (const record of records) delete record.dynamodb?.SequenceNumber;

    await expect(invoke(records)).rejects.toThrow(
      'A failed stream record has no SequenceNumber to report',
    );
  });

  it('leaves no timer of the batch (budget, attempts) pending once it has answered', async () => {
    const { invoke } = consumer();
    const records = inserts(3, 'released');
    const timers = timerTracker();
    timers.start();

    const response = await invoke(records);

    expect(response.batchItemFailures).toEqual([]);
    expect(await timers.stillPending()).toEqual([]);
  });
});
