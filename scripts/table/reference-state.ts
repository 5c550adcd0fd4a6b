import {
  type AttributeValue,
  GetItemCommand,
  paginateQuery,
  paginateScan,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import {
  conflictCountAttributes,
  type Resolution,
  type Settlement,
  settlementAttributes,
} from '../../lambda/settle/settlement.js';
import { attributes, indexNames } from '../../lambda/storage/table-definition.js';
import { type ContentDifference, contentDifferences } from './content-differences.js';
import { itemsByReference, maxKeysPerBatch, type QueryContext } from './transaction-queries.js';

export type Item = Record<string, AttributeValue>;

/** How many hex digits of a content's fingerprint name its conflict (`--conflict`). */
export const conflictIdLength = 12;

/** One conflicting content kept for audit, as an operator judges it. */
export interface ConflictView {
  readonly reference: string;
  /** The first {@link conflictIdLength} hex digits of its fingerprint: what `--conflict` takes. */
  readonly id: string;
  readonly fingerprint: string;
  readonly firstReceivedAt: string;
  readonly lastReceivedAt: string;
  readonly deliveries: number;
  /** The stored transaction's version it was compared with (what `--expect-version` takes). */
  readonly transactionVersion: number;
  /** The decision on it; absent while it is open. */
  readonly settlement?: Settlement;
  /** Against the transaction as stored now; empty if that is gone. */
  readonly differences: readonly ContentDifference[];
  /** The conflict item as read. */
  readonly item: Item;
}

/** A reference's transaction item, its version and every conflict kept for it, oldest first. */
export interface ReferenceState {
  readonly reference: string;
  readonly transaction: Item | undefined;
  /** The content's version: 1 until the first correction. */
  readonly version: number;
  /** The settle-write counter the next write is conditioned on; undefined before any. */
  readonly revision: number | undefined;
  readonly conflicts: readonly ConflictView[];
}

/** The transaction (read consistently) and its conflicts (from the `byConflictOf` index). */
export async function readReference(
  { client, tableName }: QueryContext,
  reference: string,
): Promise<ReferenceState> {
  const [stored, conflictItems] = await Promise.all([
    client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { [attributes.reference]: { S: reference } },
        ConsistentRead: true,
      }),
    ),
    collect(
      paginateQuery(
        { client },
        {
          TableName: tableName,
          IndexName: indexNames.byConflictOf,
          KeyConditionExpression: '#of = :reference',
          ExpressionAttributeNames: { '#of': attributes.conflictOf },
          ExpressionAttributeValues: { ':reference': { S: reference } },
        },
      ),
    ),
  ]);
  const transaction = stored.Item?.record?.S === 'transaction' ? stored.Item : undefined;
  return stateOf(reference, transaction, conflictItems);
}

/**
 * Every conflict kept, open ones only unless `all`, grouped by reference (references in order,
 * each reference's conflicts oldest first). The conflicts index is sparse, so the scan reads
 * conflict items only; their transactions are then read by key, a hundred at a time.
 */
export async function listConflicts(
  context: QueryContext,
  { all }: { readonly all: boolean },
): Promise<ConflictView[]> {
  const { client, tableName } = context;
  const items: Item[] = [];
  for await (const page of paginateScan(
    { client },
    { TableName: tableName, IndexName: indexNames.byConflictOf },
  )) {
    items.push(...(page.Items ?? []));
  }
  return viewsOf(context, items, all);
}

/**
 * Conflict items as an operator sees them: grouped by the reference they claim (references in
 * order), each reference's transaction read by key a hundred at a time, open ones only unless
 * `all`.
 */
async function viewsOf(
  context: QueryContext,
  items: readonly Item[],
  all: boolean,
): Promise<ConflictView[]> {
  const byReference = new Map<string, Item[]>();
  for (const item of items) {
    const reference = item[attributes.conflictOf]?.S;
    if (reference === undefined) continue;
    const kept = byReference.get(reference);
    if (kept) kept.push(item);
    else byReference.set(reference, [item]);
  }
  const references = [...byReference.keys()].sort();
  const views: ConflictView[] = [];
  for (let start = 0; start < references.length; start += maxKeysPerBatch) {
    const batch = references.slice(start, start + maxKeysPerBatch);
    const transactions = await itemsByReference(context, batch);
    for (const reference of batch) {
      const state = stateOf(
        reference,
        transactions.get(reference),
        byReference.get(reference) ?? [],
      );
      views.push(...state.conflicts.filter((conflict) => all || !conflict.settlement));
    }
  }
  return views;
}

/** One page of {@link conflictsPage}: its conflicts, and where the next page starts (if any). */
export interface ConflictsPage {
  readonly conflicts: readonly ConflictView[];
  /** The conflicts index's key to continue from (a scan's `ExclusiveStartKey`); absent at the end. */
  readonly next?: Item;
}

/**
 * Up to `limit` conflicts, open ones only unless `all`, continuing from `after`: what a screen
 * shows. It reads the conflicts index a page at a time (`Limit`, `ExclusiveStartKey`) and only
 * this page's transactions, so its cost does not grow with the table. Open ones only may need
 * more than one page of the index to fill a screen; it reads at most `maxRounds` and then stops
 * short, with a `next` that carries on. Order: the index's (by reference's hash), each round's
 * conflicts by reference and first delivery.
 */
export async function conflictsPage(
  context: QueryContext,
  {
    all,
    limit,
    after,
    maxRounds = 5,
  }: {
    readonly all: boolean;
    readonly limit: number;
    readonly after?: Item;
    readonly maxRounds?: number;
  },
): Promise<ConflictsPage> {
  const { client, tableName } = context;
  const conflicts: ConflictView[] = [];
  let start = after;
  for (let round = 0; round < maxRounds && conflicts.length < limit; round += 1) {
    // Never more than the screen still has room for: every conflict read is shown or skipped
    // as settled, so the next page starts exactly where this one stopped.
    const scanned = await client.send(
      new ScanCommand({
        TableName: tableName,
        IndexName: indexNames.byConflictOf,
        Limit: limit - conflicts.length,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    conflicts.push(...(await viewsOf(context, scanned.Items ?? [], all)));
    start = scanned.LastEvaluatedKey;
    if (start === undefined) break;
  }
  return start ? { conflicts, next: start } : { conflicts };
}

function stateOf(
  reference: string,
  transaction: Item | undefined,
  conflictItems: Item[],
): ReferenceState {
  const settlements = settlementsOf(transaction);
  const conflicts = conflictItems
    .map((item): ConflictView => {
      const fingerprint = item.fingerprint?.S ?? '';
      const settlement = settlements.get(fingerprint);
      const firstReceivedAt = item[attributes.receivedAt]?.S ?? '';
      return {
        reference,
        id: fingerprint.slice(0, conflictIdLength),
        fingerprint,
        firstReceivedAt,
        lastReceivedAt: item[conflictCountAttributes.lastReceivedAt]?.S ?? firstReceivedAt,
        // At least the delivery that made it.
        deliveries: Number(item[conflictCountAttributes.deliveries]?.N ?? '1'),
        transactionVersion: versionOf(transaction),
        ...(settlement ? { settlement } : {}),
        differences: transaction ? contentDifferences(transaction, item.transaction?.M ?? {}) : [],
        item,
      };
    })
    .sort((a, b) => a.firstReceivedAt.localeCompare(b.firstReceivedAt) || a.id.localeCompare(b.id));
  return {
    reference,
    transaction,
    version: versionOf(transaction),
    revision: revisionOf(transaction),
    conflicts,
  };
}

export function versionOf(item: Item | undefined): number {
  return Number(item?.[settlementAttributes.version]?.N ?? '1');
}

export function revisionOf(item: Item | undefined): number | undefined {
  const revision = item?.[settlementAttributes.revision]?.N;
  return revision === undefined ? undefined : Number(revision);
}

/** The decisions kept on a transaction item, by content fingerprint. */
export function settlementsOf(item: Item | undefined): Map<string, Settlement> {
  const found = new Map<string, Settlement>();
  for (const [fingerprint, value] of Object.entries(
    item?.[settlementAttributes.settlements]?.M ?? {},
  )) {
    const fields = value.M ?? {};
    found.set(fingerprint, {
      resolution: (fields.resolution?.S ?? 'stored') as Resolution,
      settledAt: fields.settledAt?.S ?? '',
      settledBy: fields.settledBy?.S ?? '',
      reason: fields.reason?.S ?? '',
      version: Number(fields.version?.N ?? '1'),
    });
  }
  return found;
}

async function collect(pages: AsyncIterable<{ Items?: Item[] }>): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of pages) items.push(...(page.Items ?? []));
  return items;
}
