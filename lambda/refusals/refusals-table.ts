import type { IndexDefinition, TableDefinition } from '../storage/table-definition.js';

/**
 * The refusals table, defined once for the CDK stack, local mode and the tests. A table of its
 * own rather than items in the transactions table: it has no stream, so a refusal can never
 * reach the events; none of the transaction indexes see it; and DynamoDB TTL, which deletes
 * items, is switched on only here, never where payments are recorded.
 */
export const refusalsTable = {
  /** Partition key: the body's SHA-256 (hex), so a body is kept once. */
  partitionKey: 'digest',
  /** Epoch seconds after which DynamoDB deletes the item (TTL, typically within days of it). */
  expiresAt: 'expiresAt',
  /** ISO-8601 time of the last delivery: the sort key of {@link refusalsIndex}. */
  lastReceivedAt: 'lastReceivedAt',
  /**
   * The digest's first hex digit: which of the 16 partitions of {@link refusalsIndex} holds the
   * refusal. Only refusals carry it, so the per-minute counter items are never listed.
   */
  listShard: 'listShard',
} as const;

/**
 * What the list view shows, besides the keys: the index carries these and never the body or the
 * headers, so a repeated delivery rewrites a small index entry, not a 64 KB copy. Views that need
 * the body read the items back by key, a page at a time.
 */
export const refusalListAttributes = [
  refusalsTable.partitionKey,
  'deliveries',
  'status',
  'problem',
  'reference',
  'bodyBytes',
  'bodyKept',
] as const;

/**
 * Refusals by last delivery, newest first: 16 partitions chosen by the digest's first hex digit,
 * read in parallel and merged (as the transactions' `byTime`). A digest prefix names its one
 * partition, so finding a refusal by prefix reads a sixteenth of the index, never the table.
 * DynamoDB keeps an index key to 1,000 writes a second; repeats of one body all land in one
 * partition, and only they can come that fast (new bodies are bounded per minute).
 */
export const refusalsIndex: IndexDefinition = {
  indexName: 'byLastReceived',
  partitionKey: refusalsTable.listShard,
  sortKey: refusalsTable.lastReceivedAt,
  projection: refusalListAttributes.filter((name) => name !== refusalsTable.partitionKey),
};

/** Key schema and the one index, for the stack and for local mode's `CreateTable`. */
export const refusalsTableDefinition: TableDefinition = {
  partitionKey: refusalsTable.partitionKey,
  indexes: [refusalsIndex],
};

/** The index partition of a refusal (or of a digest prefix): its first hex digit. */
export function listShardOf(digest: string): string {
  return digest.slice(0, 1).toLowerCase();
}

/** Every value {@link listShardOf} gives: one query each when listing everything. */
export const listShards = [...'0123456789abcdef'];

/** How long a refusal is kept after its last delivery, unless configured otherwise. */
export const defaultRefusalRetentionDays = 90;

/** The refusals table beside a transactions table that local mode or the tests name. */
export function refusalsTableName(transactionsTableName: string): string {
  return `${transactionsTableName}-refusals`;
}
