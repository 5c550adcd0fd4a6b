import type { AttributeValue as ItemValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { UnpublishableRecordError } from '../../lambda/events/errors.js';
import type { EventPublisher } from '../../lambda/events/event-publisher.js';
import { eventForRecord, putEventsEntry } from '../../lambda/events/stream-record-event.js';
import type { TransactionEvent } from '../../lambda/events/transaction-event.js';

/** What became of a set of records: the stream consumer's outcomes, per reference. */
export interface RepublishOutcome {
  readonly published: readonly { readonly reference: string; readonly detailType: string }[];
  /** Put to EventBridge and refused, or never sent because an earlier request failed. */
  readonly failed: readonly { readonly reference: string; readonly problem: string }[];
  /** Records that claim to be ours but cannot become a valid event: an operator's job. */
  readonly unpublishable: readonly { readonly record: string; readonly problem: string }[];
}

export function allPublished(outcome: RepublishOutcome): boolean {
  return outcome.failed.length === 0 && outcome.unpublishable.length === 0;
}

/**
 * Publishes records exactly as the stream consumer does: the same `eventForRecord` decides
 * whether a record is an event and builds its `detail`, the same `putEventsEntry` makes the
 * entry, the same publisher sends it. Records that stand for no event (MODIFY, REMOVE, other
 * items) are done by definition, as they are for the consumer.
 */
export async function republish(
  records: readonly DynamoDBRecord[],
  publisher: EventPublisher,
  eventBusName: string,
): Promise<RepublishOutcome> {
  const unpublishable: { record: string; problem: string }[] = [];
  const events: TransactionEvent[] = [];
  for (const record of records) {
    try {
      const event = eventForRecord(record);
      if (event !== undefined) events.push(event);
    } catch (error) {
      if (!(error instanceof UnpublishableRecordError)) throw error;
      const where = record.dynamodb?.SequenceNumber ?? record.dynamodb?.Keys?.reference?.S ?? '?';
      unpublishable.push({ record: where, problem: error.message });
    }
  }
  const outcomes = await publisher.publish(
    events.map((event) => putEventsEntry(event, eventBusName)),
  );
  const published: { reference: string; detailType: string }[] = [];
  const failed: { reference: string; problem: string }[] = [];
  outcomes.forEach((outcome, index) => {
    const event = events[index];
    if (event === undefined) return;
    const reference = event.detail.reference;
    if (outcome.status === 'published') published.push({ reference, detailType: event.detailType });
    else if (outcome.status === 'failed') failed.push({ reference, problem: outcome.errorCode });
    else failed.push({ reference, problem: 'not sent after an earlier failure' });
  });
  return { published, failed, unpublishable };
}

/**
 * A table item as the INSERT record the stream carried when it was written. The receiver never
 * changes an item once written, so the item is exactly that record's new image.
 */
export function insertRecord(item: Readonly<Record<string, ItemValue>>): DynamoDBRecord {
  const image = lambdaImage(item);
  const key = image.reference;
  return {
    eventName: 'INSERT',
    dynamodb: { NewImage: image, ...(key ? { Keys: { reference: key } } : {}) },
  };
}

/**
 * The SDK's attribute values in the Lambda event's JSON form: the same, except binary, which the
 * event carries as base64 text (the receiver writes none; kept right for completeness).
 */
export function lambdaImage(
  item: Readonly<Record<string, ItemValue>>,
): NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']> {
  return JSON.parse(
    JSON.stringify(item, (_name, value) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value,
    ),
  );
}
