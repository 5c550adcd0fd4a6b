import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { EventPublisher } from '../../lambda/events/event-publisher.js';
import type { TimeWindow } from '../query/time-window.js';
import {
  type Item,
  itemsByReference,
  itemsInWindow,
  maxKeysPerBatch,
} from './recorded-transactions.js';
import { insertRecord, type RepublishOutcome, republish } from './republish.js';

export interface ReplayDependencies {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly publisher: EventPublisher;
  readonly eventBusName: string;
}

export type ReplaySelection =
  | { readonly references: readonly string[] }
  | { readonly window: TimeWindow };

export interface ReplaySummary {
  readonly published: number;
  readonly failed: RepublishOutcome['failed'];
  readonly unpublishable: RepublishOutcome['unpublishable'];
  /** References asked for that hold no recorded transaction. */
  readonly notFound: readonly string[];
}

/**
 * Republishes recorded transactions to the bus as `Transaction Completed` events, exactly as the
 * stream consumer published them when they were written (see republish.ts), a hundred at a time
 * so memory stays flat over a long window. Safe to run twice: consumers dedupe on `reference`.
 */
export async function replayTransactions(
  dependencies: ReplayDependencies,
  selection: ReplaySelection,
): Promise<ReplaySummary> {
  const { client, tableName, publisher, eventBusName } = dependencies;
  let published = 0;
  const failed: RepublishOutcome['failed'][number][] = [];
  const unpublishable: RepublishOutcome['unpublishable'][number][] = [];
  const notFound: string[] = [];

  const send = async (items: readonly Item[]) => {
    const outcome = await republish(items.map(insertRecord), publisher, eventBusName);
    published += outcome.published.length;
    failed.push(...outcome.failed);
    unpublishable.push(...outcome.unpublishable);
  };

  if ('references' in selection) {
    for (let start = 0; start < selection.references.length; start += maxKeysPerBatch) {
      const references = selection.references.slice(start, start + maxKeysPerBatch);
      const found = await itemsByReference(client, tableName, references);
      notFound.push(...references.filter((reference) => !found.has(reference)));
      // In the order asked for, each once.
      const items = [...new Set(references)].map((reference) => found.get(reference));
      await send(items.filter((item): item is Item => item !== undefined));
    }
  } else {
    let batch: Item[] = [];
    for await (const item of itemsInWindow(client, tableName, selection.window)) {
      batch.push(item);
      if (batch.length === maxKeysPerBatch) {
        await send(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await send(batch);
  }
  return { published, failed, unpublishable, notFound };
}
