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
} as const;

/** How long a refusal is kept after its last delivery, unless configured otherwise. */
export const defaultRefusalRetentionDays = 90;

/** The first bytes of a body over the size limit that are kept: enough to see what it was. */
export const keptPartBytes = 8 * 1024;

/** The refusals table beside a transactions table that local mode or the tests name. */
export function refusalsTableName(transactionsTableName: string): string {
  return `${transactionsTableName}-refusals`;
}
