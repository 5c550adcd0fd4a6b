import { Option } from '@commander-js/extra-typings';
import type { DynamoDBRecord, AttributeValue as LambdaAttribute } from 'aws-lambda';
import { UnpublishableRecordError } from '../../lambda/events/errors.js';
import { EventBridgePublisher, type EventPublisher } from '../../lambda/events/event-publisher.js';
import { createEventBridgeClient } from '../../lambda/events/eventbridge-client.js';
import { eventForRecord, putEventsEntry } from '../../lambda/events/stream-record-event.js';
import type { TransactionEvent } from '../../lambda/events/transaction-event.js';
import { UsageError } from '../cli/cli-errors.js';
import type { TimeWindow } from '../table/time-window.js';
import {
  type Item,
  itemsByReference,
  itemsInWindow,
  maxKeysPerBatch,
  type QueryContext,
} from '../table/transaction-queries.js';

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

/** What replay could not do, one reference (or stream record) at a time. */
export type ReplayProblem =
  | { readonly kind: 'notFound'; readonly reference: string; readonly problem: string }
  | { readonly kind: 'failed'; readonly reference: string; readonly problem: string }
  | { readonly kind: 'unpublishable'; readonly record: string; readonly problem: string };

/** How many were published, and how many of each problem (each also handed to `found`). */
export interface ReplaySummary {
  readonly published: number;
  readonly failed: number;
  readonly unpublishable: number;
  /** References asked for that hold no recorded transaction. */
  readonly notFound: number;
}

/**
 * Republishes recorded transactions a hundred at a time; each problem goes to `found` as it
 * happens (awaited), so memory stays flat over any window. Consumers dedupe.
 */
export async function replayTransactions(
  dependencies: Destination & QueryContext,
  selection: { readonly references: readonly string[] } | { readonly window: TimeWindow },
  found: (problem: ReplayProblem) => void | Promise<void> = () => {},
): Promise<ReplaySummary> {
  const counts = { published: 0, failed: 0, unpublishable: 0, notFound: 0 };
  const report = async (problem: ReplayProblem) => {
    counts[problem.kind] += 1;
    await found(problem);
  };
  const send = async (items: readonly Item[]) => {
    const outcome = await republish(items.map(insertRecord), dependencies);
    counts.published += outcome.published.length;
    for (const failed of outcome.failed) await report({ kind: 'failed', ...failed });
    for (const record of outcome.unpublishable) await report({ kind: 'unpublishable', ...record });
  };
  if ('references' in selection) {
    for (let start = 0; start < selection.references.length; start += maxKeysPerBatch) {
      const references = selection.references.slice(start, start + maxKeysPerBatch);
      const found = await itemsByReference(dependencies, references);
      for (const reference of references.filter((reference) => !found.has(reference))) {
        await report({ kind: 'notFound', reference, problem: 'no recorded transaction' });
      }
      // In the order asked for, each once.
      const items = [...new Set(references)].map((reference) => found.get(reference));
      await send(items.filter((item) => item !== undefined));
    }
  } else {
    for await (const items of itemsInWindow(dependencies, selection.window)) await send(items);
  }
  return counts;
}
