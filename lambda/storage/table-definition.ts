import {
  type FieldDeclarations,
  fieldNames,
  transactionFields,
} from '../callback/transaction-fields.js';

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
  /** `0`…`15`: which of the {@link timeShards} partitions of the time index holds the item. */
  timeShard: 'timeShard',
  /** Present on conflict audit items only: the reference the conflicting delivery claimed. */
  conflictOf: 'conflictOf',
} as const;

/**
 * How many partitions the time index spreads its writes over. Its key is the shard alone, with
 * no day in it, so a window of any length, a day or ten years, costs {@link timeShards} queries
 * (each a `receivedAt` range, plus pagination), read in parallel and merged newest first.
 *
 * Why 16, at 5,000 callbacks a second:
 * - An index entry holds the keys and the list attributes only (see {@link listAttributesOf}):
 *   about 200 bytes for a typical transaction (+100 bytes of DynamoDB's per-entry overhead),
 *   under 1 KB, so one write unit per callback whatever the body's size.
 * - 5,000 callbacks/s x 1 WCU = 5,000 WCU/s on the index. One partition key value takes at
 *   most 1,000 WCU/s; a key's sort key grows with time, so DynamoDB cannot split it for heat.
 * - 5,000 / 16 = 313 WCU/s per shard: 31% of a partition's limit. That leaves room for a 3x
 *   burst, or for entries up to 3 KB (a username near its 2,048-byte index limit) at full rate.
 *   Eight shards would sit at 63%: no headroom for either.
 * The shard is chosen by the reference (FNV-1a), so retries of one callback land on one shard
 * and the spread does not depend on the clock.
 */
export const timeShards = 16;

/**
 * What the list view, `export` and `summary` show: the fields declared `listed`, less the table's
 * key, which every index carries anyway. The username and time indexes project these (plus the
 * keys), never the raw body or the delivery's metadata, so an index write costs one unit rather
 * than a copy of the whole item.
 */
export function listAttributesOf(fields: FieldDeclarations): string[] {
  return fieldNames(fields, (field) => field.listed !== false).filter(
    (name) => name !== attributes.reference,
  );
}

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** `all`, or the non-key attributes the index carries (DynamoDB `INCLUDE`). */
  readonly projection: 'all' | readonly string[];
}

export interface TableDefinition {
  readonly partitionKey: string;
  readonly indexes: readonly IndexDefinition[];
}

/**
 * Index names. A changed key or projection needs a new name: DynamoDB cannot alter an index in
 * place, and CloudFormation creates or deletes one index per stack update, so a new index is
 * deployed beside the one it replaces before that one is removed. The two list indexes project
 * the listed fields, so a listed field declared in version N renames them (`byUserV2`): derived,
 * so the projection and the name cannot disagree.
 */
export function indexNamesOf(fields: FieldDeclarations = transactionFields) {
  const suffix = listedSince(fields) > 1 ? `V${listedSince(fields)}` : '';
  return {
    byUser: `byUser${suffix}`,
    byTime: `byTime${suffix}`,
    byConflictOf: 'byConflictOf',
  } as const;
}

/** The newest version among the listed fields. */
function listedSince(fields: FieldDeclarations): number {
  return Math.max(
    ...Object.values(fields).map((field) => (field.listed === false ? 1 : field.since)),
  );
}

// Pure: a bundle that never reads it (the receiver's) drops the call instead of running it at load.
export const indexNames = /* @__PURE__ */ indexNamesOf(transactionFields);

/**
 * The table for a declaration of the transaction's fields (tests: a fixture's). Once a listed
 * field was declared after version 1, the list indexes also carry `extra`: items stored before
 * hold that field's value there, and the list view reads it out as the field (lossless, at the
 * cost of the extra members' bytes in each index entry that has any).
 */
export function transactionsTableOf(fields: FieldDeclarations): TableDefinition {
  const indexNames = indexNamesOf(fields);
  const listAttributes = [
    ...listAttributesOf(fields),
    ...(listedSince(fields) > 1 ? ['extra'] : []),
  ];
  return {
    partitionKey: attributes.reference,
    indexes: [
      // A user's transactions, newest first.
      {
        indexName: indexNames.byUser,
        partitionKey: attributes.usernameKey,
        sortKey: attributes.receivedAt,
        projection: listAttributes,
      },
      // Everything received in a time window: one range query per shard, whatever the window.
      {
        indexName: indexNames.byTime,
        partitionKey: attributes.timeShard,
        sortKey: attributes.receivedAt,
        projection: listAttributes,
      },
      // Conflicting deliveries kept for audit, found by the reference they claimed. Written only
      // when a delivery contradicts a stored one (rare), and `get` shows each whole: all projected.
      {
        indexName: indexNames.byConflictOf,
        partitionKey: attributes.conflictOf,
        sortKey: attributes.receivedAt,
        projection: 'all',
      },
    ],
  };
}

export const transactionsTable = /* @__PURE__ */ transactionsTableOf(transactionFields);

/** Every attribute the key schema and indexes use, each once (all strings). */
export function keyAttributeNames(table: TableDefinition = transactionsTable): string[] {
  const names = new Set<string>([table.partitionKey]);
  for (const index of table.indexes) {
    names.add(index.partitionKey);
    names.add(index.sortKey);
  }
  return [...names];
}
