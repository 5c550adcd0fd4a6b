import { type DynamoDBClient, paginateQuery } from '@aws-sdk/client-dynamodb';
import type { TableDefinition } from '../../lambda/storage/table-definition.js';
import { type Item, timeShard } from '../../lambda/storage/transaction-item.js';
import { mergeNewestFirst } from '../../scripts/query/newest-first.js';
import { type StoredItem, storedItem } from '../../scripts/query/stored-item.js';
import type { TimeWindow } from '../../scripts/query/time-window.js';

/**
 * The design byTime replaced, kept only to measure against: the time index keyed
 * `<UTC day>#<shard>` (sixteen shards a day), and both list indexes projecting every attribute.
 */
export const legacyTable: TableDefinition = {
  partitionKey: 'reference',
  indexes: [
    {
      indexName: 'byUsername',
      partitionKey: 'usernameKey',
      sortKey: 'receivedAt',
      projection: 'all',
    },
    {
      indexName: 'byReceivedShard',
      partitionKey: 'receivedShard',
      sortKey: 'receivedAt',
      projection: 'all',
    },
    {
      indexName: 'byConflictOf',
      partitionKey: 'conflictOf',
      sortKey: 'receivedAt',
      projection: 'all',
    },
  ],
};

const legacyShards = 16;

/** A transaction item as the old design wrote it: the day bucket instead of the shard alone. */
export function legacyItem(item: Item): Item {
  const { timeShard: _, ...rest } = item;
  const reference = item.reference?.S ?? '';
  const day = (item.receivedAt?.S ?? '').slice(0, 10);
  return { ...rest, receivedShard: { S: `${day}#${timeShard(reference)}` } };
}

/** The UTC days a window touches, newest first: one bucket each. */
function daysOf(window: TimeWindow): string[] {
  const days: string[] = [];
  const day = new Date(`${window.lastIncluded.slice(0, 10)}T00:00:00Z`);
  const first = window.since.slice(0, 10);
  for (;;) {
    const text = day.toISOString().slice(0, 10);
    days.push(text);
    if (text <= first) return days;
    day.setUTCDate(day.getUTCDate() - 1);
  }
}

/** How the old `list --since` read: per day, newest first, its sixteen shards merged. */
export async function* legacyListByTime(
  client: DynamoDBClient,
  tableName: string,
  window: TimeWindow,
): AsyncGenerator<StoredItem> {
  for (const day of daysOf(window)) {
    yield* mergeNewestFirst(
      Array.from({ length: legacyShards }, (_, shard) =>
        (async function* () {
          const pages = paginateQuery(
            { client },
            {
              TableName: tableName,
              IndexName: 'byReceivedShard',
              KeyConditionExpression: '#shard = :shard AND #at BETWEEN :since AND :until',
              ExpressionAttributeNames: { '#shard': 'receivedShard', '#at': 'receivedAt' },
              ExpressionAttributeValues: {
                ':shard': { S: `${day}#${shard}` },
                ':since': { S: window.since },
                ':until': { S: window.lastIncluded },
              },
              ScanIndexForward: false,
            },
          );
          for await (const page of pages) {
            for (const item of page.Items ?? []) yield storedItem(item);
          }
        })(),
      ),
    );
  }
}
