import {
  type FieldDeclarations,
  fieldNames,
  transactionFields,
} from '../callback/transaction-fields.js';

/**
 * The transactions table, defined once. The CDK stack, local mode and the tests all build the
 * table from this object, so the key schema and indexes cannot drift between AWS and a laptop.
 *
 * Every key attribute named here is a string (DynamoDB `S`) but the gateway's `id` (`N`).
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
  /** The gateway's own transaction id, a declared integer stored as `N`: what its support quotes. */
  gatewayId: 'id',
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
  /** @default 'S' */
  readonly partitionKeyType?: 'S' | 'N';
  readonly sortKey: string;
  /**
   * `all`; `keys`, the table's and the index's keys alone (DynamoDB `KEYS_ONLY`); or the non-key
   * attributes the index carries (DynamoDB `INCLUDE`).
   */
  readonly projection: 'all' | 'keys' | readonly string[];
}

/**
 * The search indexes, in the order a stack deployed without them adds them: one per stack update
 * (docs/deploy.md, "Changing indexes"). Each holds keys only, so no field declaration ever has
 * to rebuild it; a search reads its page of matches back by key (at most one batch).
 * - `byReference`: every transaction under its time shard, sorted by reference, so a prefix is
 *   one `begins_with` range per shard, {@link timeShards} queries at any table size.
 * - `byGatewayId`: the gateway's `id`, newest first: one query.
 */
export const searchIndexNames = ['byReference', 'byGatewayId'] as const;
export type SearchIndexName = (typeof searchIndexNames)[number];

export interface TableDefinition {
  readonly partitionKey: string;
  readonly indexes: readonly IndexDefinition[];
}

/**
 * The list indexes the table holds, each by the declaration version whose listed fields it
 * projects (version 1: `byUser`; version 3: `byUserV3`), oldest first. DynamoDB cannot alter an
 * index in place, and CloudFormation creates or deletes one index per stack update, so a listed
 * field cannot just rename both list indexes: each gets its new version beside the old one, and
 * loses the old one, in a deploy of its own (docs/deploy.md, "Changing indexes").
 */
export interface ListIndexVersions {
  readonly byUser: readonly number[];
  readonly byTime: readonly number[];
}

/**
 * The product's list indexes, as deployed. Declaring a listed field in version N adds N to
 * `byUser` in the same change; then one deploy each: N to `byTime`, the old version off `byUser`,
 * the old version off `byTime` (docs/design.md, "Adding a field").
 */
export const listIndexVersions: ListIndexVersions = { byUser: [1], byTime: [1] };

/**
 * The list indexes of `fields`: the product's as deployed; a fixture's, built from scratch, each
 * on the newest listed version alone (the state a finished staged change leaves).
 */
export function listIndexVersionsOf(fields: FieldDeclarations): ListIndexVersions {
  if (fields === transactionFields) return listIndexVersions;
  const settled = [listedSince(fields)];
  return { byUser: settled, byTime: settled };
}

/** The name of the list index `base` built for declaration version `version`. */
function versionedName(base: 'byUser' | 'byTime', version: number): string {
  return version > 1 ? `${base}V${version}` : base;
}

/**
 * The indexes the tools query: of each list index, its oldest version, the one built before the
 * last deploy, so never one still backfilling (DynamoDB refuses to read those). The newer one
 * is read once the next step removes the old.
 */
export function indexNamesOf(
  fields: FieldDeclarations = transactionFields,
  versions: ListIndexVersions = listIndexVersionsOf(fields),
) {
  return {
    byUser: versionedName('byUser', oldest(versions.byUser)),
    byTime: versionedName('byTime', oldest(versions.byTime)),
    byConflictOf: 'byConflictOf',
    byReference: 'byReference',
    byGatewayId: 'byGatewayId',
  } as const;
}

function oldest(versions: readonly number[]): number {
  return Math.min(...versions);
}

/** The newest version among the listed fields. */
export function listedSince(fields: FieldDeclarations): number {
  return Math.max(
    ...Object.values(fields).map((field) => (field.listed === false ? 1 : field.since)),
  );
}

// Pure: a bundle that never reads it (the receiver's) drops the call instead of running it at load.
export const indexNames = /* @__PURE__ */ indexNamesOf(transactionFields);

/**
 * What a list index built for declaration `version` projects: the fields listed by then. Once a
 * listed field was declared after version 1, also `extra`: items stored before hold that field's
 * value there, and the list view reads it out as the field (lossless, at the cost of the extra
 * members' bytes in each index entry that has any).
 */
function listProjection(fields: FieldDeclarations, version: number): string[] {
  const known = Object.fromEntries(
    Object.entries(fields).filter(([, field]) => field.since <= version),
  );
  return [...listAttributesOf(known), ...(listedSince(known) > 1 ? ['extra'] : [])];
}

/**
 * The table for a declaration of the transaction's fields (tests: a fixture's), the list indexes
 * it holds (@default {@link listIndexVersionsOf}) and its search indexes (@default all of them).
 */
export function transactionsTableOf(
  fields: FieldDeclarations,
  versions: ListIndexVersions = listIndexVersionsOf(fields),
  search: readonly SearchIndexName[] = searchIndexNames,
): TableDefinition {
  const searchIndexes: Record<SearchIndexName, IndexDefinition> = {
    byReference: {
      indexName: 'byReference',
      partitionKey: attributes.timeShard,
      sortKey: attributes.reference,
      projection: 'keys',
    },
    byGatewayId: {
      indexName: 'byGatewayId',
      partitionKey: attributes.gatewayId,
      partitionKeyType: 'N',
      sortKey: attributes.receivedAt,
      projection: 'keys',
    },
  };
  const listIndex = (base: 'byUser' | 'byTime', partitionKey: string) =>
    versions[base].map(
      (version): IndexDefinition => ({
        indexName: versionedName(base, version),
        partitionKey,
        sortKey: attributes.receivedAt,
        projection: listProjection(fields, version),
      }),
    );
  return {
    partitionKey: attributes.reference,
    indexes: [
      // A user's transactions, newest first.
      ...listIndex('byUser', attributes.usernameKey),
      // Everything received in a time window: one range query per shard, whatever the window.
      ...listIndex('byTime', attributes.timeShard),
      // Conflicting deliveries kept for audit, found by the reference they claimed. Written only
      // when a delivery contradicts a stored one (rare), and `get` shows each whole: all projected.
      {
        indexName: 'byConflictOf',
        partitionKey: attributes.conflictOf,
        sortKey: attributes.receivedAt,
        projection: 'all',
      },
      // Conflict audit items carry neither a time shard nor a top-level id: never found here.
      ...searchIndexNames
        .filter((name) => search.includes(name))
        .map((name) => searchIndexes[name]),
    ],
  };
}

export const transactionsTable = /* @__PURE__ */ transactionsTableOf(transactionFields);

/** Every attribute the key schema and indexes use, each once, with its DynamoDB type. */
export function keyAttributesOf(
  table: TableDefinition = transactionsTable,
): { readonly name: string; readonly type: 'S' | 'N' }[] {
  const types = new Map<string, 'S' | 'N'>([[table.partitionKey, 'S']]);
  for (const index of table.indexes) {
    types.set(index.partitionKey, index.partitionKeyType ?? 'S');
    types.set(index.sortKey, 'S');
  }
  return [...types].map(([name, type]) => ({ name, type }));
}
