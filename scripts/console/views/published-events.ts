import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { UnpublishableRecordError } from '../../../lambda/events/errors.js';
import { eventForRecord, putEventsEntry } from '../../../lambda/events/stream-record-event.js';
import { lastChanges, settlementAttributes } from '../../../lambda/settle/settlement.js';
import { deliveryAttributes } from '../../../lambda/settle/written-attributes.js';
import { displayValue, type StoredItem } from '../../table/stored-item.js';

/** One event the stack publishes for a reference, or the record it could not publish. */
export interface PublishedEvent {
  readonly detailType: string;
  /** When the change that raises it was made (ISO-8601). */
  readonly at: string;
  /** The detail as PutEvents carries it (JSON text); absent when none could be built. */
  readonly detail?: string;
  /** Why the change publishes nothing but a dead letter (the record is not a valid event). */
  readonly problem?: string;
  /** The page's anchor of what it stands for: `version-N` or `conflict-<id>`. */
  readonly anchor: string;
}

/** A change of the table as the stream carries it, rebuilt from what the items keep. */
interface Change {
  readonly eventName: 'INSERT' | 'MODIFY';
  readonly image: StoredItem;
  readonly at: string;
  readonly anchor: string;
}

/**
 * The events the deployed stack published for this reference, derived as its stream consumer
 * derives them: each change the items record (the transaction's first write, each conflict's
 * first write, each correction) is rebuilt as the stream's new image and handed to the
 * consumer's own `eventForRecord` and `putEventsEntry`. Changes that publish nothing (a settle
 * that kept the stored content, a settled content delivered again) give nothing here either.
 */
export function publishedEvents(
  transaction: StoredItem,
  conflicts: readonly StoredItem[],
  conflictAnchor: (conflict: StoredItem) => string,
): PublishedEvent[] {
  const changes: Change[] = [
    ...transactionChanges(transaction),
    ...conflicts.map(
      (conflict): Change => ({
        eventName: 'INSERT',
        image: conflict,
        at: displayValue(conflict.receivedAt),
        anchor: conflictAnchor(conflict),
      }),
    ),
  ];
  return changes.flatMap((change) => eventOf(change)).sort((a, b) => a.at.localeCompare(b.at));
}

function eventOf(change: Change): PublishedEvent[] {
  const record = {
    eventName: change.eventName,
    // The stream's AttributeValue JSON is the SDK's; numbers go back as their stored digits.
    dynamodb: { NewImage: marshall(change.image, { removeUndefinedValues: true }) },
  } as DynamoDBRecord;
  try {
    const event = eventForRecord(record);
    if (event === undefined) return [];
    const { DetailType, Detail } = putEventsEntry(event, 'console');
    return [
      { detailType: String(DetailType), at: change.at, detail: Detail, anchor: change.anchor },
    ];
  } catch (error) {
    if (!(error instanceof UnpublishableRecordError)) throw error;
    return [
      {
        detailType: 'none (dead letter)',
        at: change.at,
        problem: error.message,
        anchor: change.anchor,
      },
    ];
  }
}

/**
 * The transaction's first write (its first version as delivered) and one write per correction,
 * each as the item stood right after it: a correction's image holds the history up to it and the
 * content it accepted.
 */
function transactionChanges(item: StoredItem): Change[] {
  const history = (Array.isArray(item.history) ? item.history : []) as StoredItem[];
  const first = history[0];
  const changes: Change[] = [
    {
      eventName: 'INSERT',
      image:
        first === undefined ? item : versionImage(item, first, { receivedAt: first.deliveredAt }),
      at: displayValue(item.receivedAt),
      anchor: 'version-1',
    },
  ];
  for (let index = 1; index <= history.length; index++) {
    const entry = history[index];
    const correction = (entry === undefined ? item.correction : entry.correction) as
      | StoredItem
      | undefined;
    const bookkeeping = {
      [settlementAttributes.history]: history.slice(0, index),
      [settlementAttributes.correction]: correction,
      [settlementAttributes.version]: index + 1,
      [settlementAttributes.lastChange]: lastChanges.correction,
    };
    changes.push({
      eventName: 'MODIFY',
      image:
        entry === undefined
          ? { ...item, ...bookkeeping }
          : versionImage(item, entry, { ...bookkeeping, receivedAt: item.receivedAt }),
      at: displayValue(correction?.settledAt),
      anchor: `version-${index + 1}`,
    });
  }
  return changes;
}

/** The transaction item as it held an earlier version: that version's content and delivery. */
function versionImage(item: StoredItem, entry: StoredItem, more: StoredItem): StoredItem {
  const delivery = Object.fromEntries(deliveryAttributes.map((name) => [name, entry[name]]));
  return {
    reference: item.reference,
    record: 'transaction',
    ...(entry.transaction as StoredItem),
    ...delivery,
    ...more,
  };
}
