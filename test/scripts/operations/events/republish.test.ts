import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { EntryOutcome, EventPublisher } from '../../../../lambda/events/event-publisher.js';
import { transactionItem } from '../../../../lambda/storage/transaction-item.js';
import {
  destination,
  insertRecord,
  lambdaJson,
  republish,
} from '../../../../scripts/operations/events/republish.js';
import { transaction } from '../../../support/fixtures.js';
import { recordOf, streamRecord } from '../../../support/stream-records.js';

/** A publisher that answers each entry in turn with the outcomes given, and keeps what it got. */
function answering(...outcomes: EntryOutcome[]) {
  const sent: PutEventsRequestEntry[] = [];
  const publisher: EventPublisher = {
    async publish(entries) {
      sent.push(...entries);
      return entries.map((_, index) => outcomes[index] ?? { status: 'published', eventId: 'e' });
    },
  };
  return { publisher, sent };
}

const inserted = (fields = transaction()) => ({
  reference: fields.reference as string,
  record: streamRecord('INSERT', transactionItem(recordOf(fields))),
});

describe('republishing stream records', () => {
  it('says per reference what was published, what the bus refused and why, and what was never sent', async () => {
    const [first, second, third] = [inserted(), inserted(), inserted()];
    const { publisher, sent } = answering(
      { status: 'published', eventId: 'event-1' },
      { status: 'failed', errorCode: 'AccessDeniedException', errorMessage: 'not\n  allowed' },
      { status: 'not-sent' },
    );

    const outcome = await republish([first.record, second.record, third.record], {
      publisher,
      eventBusName: 'payments-bus',
    });

    expect(sent.map((entry) => entry.EventBusName)).toEqual(Array(3).fill('payments-bus'));
    expect(outcome).toEqual({
      published: [{ reference: first.reference, detailType: 'Transaction Completed' }],
      failed: [
        { reference: second.reference, problem: 'AccessDeniedException: not allowed' },
        { reference: third.reference, problem: 'not sent after an earlier failure' },
      ],
      unpublishable: [],
    });
  });

  it('names a refusal by its code alone when it came without a message, and cuts a long message short', async () => {
    const [first, second] = [inserted(), inserted()];
    const { publisher } = answering(
      { status: 'failed', errorCode: 'ThrottlingException' },
      { status: 'failed', errorCode: 'InternalException', errorMessage: 'x'.repeat(300) },
    );

    const { failed } = await republish([first.record, second.record], {
      publisher,
      eventBusName: 'bus',
    });

    expect(failed.map((entry) => entry.problem)).toEqual([
      'ThrottlingException',
      `InternalException: ${'x'.repeat(200)}…`,
    ]);
  });

  it('sets aside records that claim to be ours but cannot become an event, named by sequence, key or neither', async () => {
    const noImage = (dynamodb: DynamoDBRecord['dynamodb']): DynamoDBRecord => ({
      eventName: 'INSERT',
      dynamodb,
    });
    const good = inserted();
    const { publisher, sent } = answering();

    const outcome = await republish(
      [
        noImage({ SequenceNumber: '42' }),
        noImage({ Keys: { reference: { S: 'ref-by-key' } } }),
        noImage({}),
        { eventName: 'REMOVE', dynamodb: {} },
        good.record,
      ],
      { publisher, eventBusName: 'bus' },
    );

    expect(outcome.unpublishable.map((entry) => entry.record)).toEqual(['42', 'ref-by-key', '?']);
    expect(outcome.unpublishable[0]?.problem).toMatch(/has no new image/);
    expect(outcome.published.map((entry) => entry.reference)).toEqual([good.reference]);
    expect(sent).toHaveLength(1);
  });

  it('a record no reader can decode stops the republish rather than being set aside', async () => {
    const broken = streamRecord('INSERT', { reference: { S: 'ref-1' } });
    (broken.dynamodb?.NewImage as Record<string, unknown>).amount = { X: '1' };

    await expect(republish([broken], { ...answering(), eventBusName: 'bus' })).rejects.toThrow(
      /Unsupported type passed: X/,
    );
  });

  it('refuses to publish without a bus, naming where to give it', () => {
    expect(() => destination(undefined)).toThrow(/--bus or EVENT_BUS_NAME/);
    expect(destination('payments-bus').eventBusName).toBe('payments-bus');
  });
});

describe('a table item as the stream would carry it', () => {
  it('keys the record by its reference, and carries binary as base64 and times as epoch seconds', () => {
    const record = insertRecord({
      reference: { S: 'ref-1' },
      rawBody: { B: new TextEncoder().encode('{}') },
    });

    expect(record).toEqual({
      eventName: 'INSERT',
      dynamodb: {
        NewImage: { reference: { S: 'ref-1' }, rawBody: { B: 'e30=' } },
        Keys: { reference: { S: 'ref-1' } },
      },
    });
    expect(lambdaJson({ at: new Date('2026-11-28T00:00:01.500Z') })).toEqual({
      at: Date.parse('2026-11-28T00:00:01.500Z') / 1000,
    });
  });

  it('an item without a reference becomes a record without keys', () => {
    expect(insertRecord({ record: { S: 'transaction' } }).dynamodb).toEqual({
      NewImage: { record: { S: 'transaction' } },
    });
  });
});
