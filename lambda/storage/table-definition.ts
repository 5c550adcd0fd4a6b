/**
 * The transactions table, defined once. The CDK stack, local mode and the tests all build the
 * table from this object, so the key schema and indexes cannot drift between AWS and a laptop.
 *
 * Every attribute named here is a string (DynamoDB `S`).
 */

/** Attribute names that the key schema and the indexes depend on. */
export const attributes = {
  /** Partition key: the gateway's `reference`, or for a conflict audit item a derived key. */
  reference: 'reference',
  /** ISO-8601 receive time, sort key of every index. */
  receivedAt: 'receivedAt',
  /**
   * The username as the index key: a copy of `username` on transaction items, left out where
   * DynamoDB cannot index it (empty, or over 2,048 bytes), so such a transaction is still
   * recorded, just not listed by user. Conflict audit items never carry it.
   */
  usernameKey: 'usernameKey',
  /** `YYYY-MM-DD#<shard>`: the day bucket split into shards (see {@link receivedShards}). */
  receivedShard: 'receivedShard',
  /** Present on conflict audit items only: the reference the conflicting delivery claimed. */
  conflictOf: 'conflictOf',
} as const;

/**
 * How many shards a day's bucket is split into. One partition takes about 1,000 writes a second;
 * sixteen shards keep the time index clear of throttling at several thousand callbacks a second,
 * and a time-window query reads sixteen partitions a day in parallel and merges them.
 */
export const receivedShards = 16;

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

export interface TableDefinition {
  readonly partitionKey: string;
  readonly indexes: readonly IndexDefinition[];
}

export const indexNames = {
  byUsername: 'byUsername',
  byReceivedShard: 'byReceivedShard',
  byConflictOf: 'byConflictOf',
} as const;

export const transactionsTable: TableDefinition = {
  partitionKey: attributes.reference,
  indexes: [
    // A user's transactions, newest first.
    {
      indexName: indexNames.byUsername,
      partitionKey: attributes.usernameKey,
      sortKey: attributes.receivedAt,
    },
    // Everything received in a time window, one partition per day and shard.
    {
      indexName: indexNames.byReceivedShard,
      partitionKey: attributes.receivedShard,
      sortKey: attributes.receivedAt,
    },
    // Conflicting deliveries kept for audit, found by the reference they claimed.
    {
      indexName: indexNames.byConflictOf,
      partitionKey: attributes.conflictOf,
      sortKey: attributes.receivedAt,
    },
  ],
};

/** Every attribute the key schema and indexes use, each once (all strings). */
export function keyAttributeNames(table: TableDefinition = transactionsTable): string[] {
  const names = new Set<string>([table.partitionKey]);
  for (const index of table.indexes) {
    names.add(index.partitionKey);
    names.add(index.sortKey);
  }
  return [...names];
}
