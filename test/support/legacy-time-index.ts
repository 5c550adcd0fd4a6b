import type { TableDefinition } from '../../lambda/storage/table-definition.js';
import { type Item, timeShard } from '../../lambda/storage/transaction-item.js';

/**
 * The design byTime replaced, kept so the upgrade tests can build a table and items as it wrote
 * them: the time index keyed `<UTC day>#<shard>`, and both list indexes projecting everything.
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

/** A transaction item as the old design wrote it: the day bucket instead of the shard alone. */
export function legacyItem(item: Item): Item {
  const { timeShard: _, ...rest } = item;
  const reference = item.reference?.S ?? '';
  const day = (item.receivedAt?.S ?? '').slice(0, 10);
  return { ...rest, receivedShard: { S: `${day}#${timeShard(reference)}` } };
}
