import { Option } from '@commander-js/extra-typings';
import type { DynamoDBRecord, AttributeValue as LambdaAttribute } from 'aws-lambda';
import { UnpublishableRecordError } from '../../../lambda/events/errors.js';
import {
  EventBridgePublisher,
  type EventPublisher,
} from '../../../lambda/events/event-publisher.js';
import { createEventBridgeClient } from '../../../lambda/events/eventbridge-client.js';
import { eventForRecord, putEventsEntry } from '../../../lambda/events/stream-record-event.js';
import type { TransactionEvent } from '../../../lambda/events/transaction-event.js';
import { UsageError } from '../../cli/cli-errors.js';
import type { Item } from '../../table/transaction-queries.js';

/** Where replay and redrive publish: the stream consumer's own client, limits and retries. */
export interface Destination {
  readonly publisher: EventPublisher;
  readonly eventBusName: string;
}

/** `--bus`, else `EVENT_BUS_NAME` as the stream consumer reads it. */
export const busOption = new Option(
  '--bus <name>',
  'the event bus (stack output EventBusName)',
).env('EVENT_BUS_NAME');

export function destination(eventBusName: string | undefined): Destination {
  if (!eventBusName) {
    throw new UsageError(
      'name the bus with --bus or EVENT_BUS_NAME (the stack output EventBusName)',
    );
  }
  return { publisher: new EventBridgePublisher(createEventBridgeClient()), eventBusName };
}

/** What became of a set of records: the stream consumer's outcomes, per reference. */
export type RepublishOutcome = Awaited<ReturnType<typeof republish>>;

/**
 * Publishes records exactly as the stream consumer does, with its own functions and publisher;
 * records that stand for no event (MODIFY, REMOVE, other items) are done by definition.
 */
export async function republish(
  records: readonly DynamoDBRecord[],
  { publisher, eventBusName }: Destination,
) {
  // Records that claim to be ours but cannot become a valid event: an operator's job.
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
  // Put to EventBridge and refused, or never sent because an earlier request failed.
  const failed: { reference: string; problem: string }[] = [];
  outcomes.forEach((outcome, index) => {
    const event = events[index];
    if (event === undefined) return;
    const reference = event.detail.reference;
    if (outcome.status === 'published') published.push({ reference, detailType: event.detailType });
    else if (outcome.status === 'failed') failed.push({ reference, problem: problemOf(outcome) });
    else failed.push({ reference, problem: 'not sent after an earlier failure' });
  });
  return { published, failed, unpublishable };
}

/**
 * `CredentialsProviderError: Could not load credentials from any providers`: the name alone said
 * nothing. The SDK's and EventBridge's messages carry no secret; cut short, escaped when printed.
 */
function problemOf({ errorCode, errorMessage }: { errorCode: string; errorMessage?: string }) {
  if (!errorMessage) return errorCode;
  const message = errorMessage.length > 200 ? `${errorMessage.slice(0, 200)}…` : errorMessage;
  return `${errorCode}: ${message.replace(/\s+/g, ' ')}`;
}

/**
 * A table item as an INSERT record. The receiver never changes an item; only an operator's
 * correction does (`npm run settle`), and then the item is the corrected transaction: replayed,
 * it is a `Transaction Completed` of what is recorded now.
 */
export function insertRecord(item: Item): DynamoDBRecord {
  const image = lambdaJson<Record<string, LambdaAttribute>>(item);
  const key = image.reference;
  return {
    eventName: 'INSERT',
    dynamodb: { NewImage: image, ...(key ? { Keys: { reference: key } } : {}) },
  };
}

/** The SDK's shapes as a Lambda event carries them: binary as base64, times in epoch seconds. */
export function lambdaJson<T>(value: unknown): T {
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, name, json) {
      const original = this[name];
      if (original instanceof Date) return original.getTime() / 1000;
      return original instanceof Uint8Array ? Buffer.from(original).toString('base64') : json;
    }),
  );
}
