import {
  type AttributeValue,
  type DynamoDBClient,
  GetItemCommand,
  paginateQuery,
  paginateScan,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { TransactionFields } from '../../lambda/callback/transaction-fields.js';
import { attributes, indexNamesOf, timeShards } from '../../lambda/storage/table-definition.js';
import { foldedUsername } from '../../lambda/storage/transaction-item.js';
import { byTimeProjection } from './index-projection.js';
import { itemsByKey, maxKeysPerRequest } from './items-by-key.js';
import { mergeSorted } from './merge-sorted.js';
import { type StoredItem, storedItem } from './stored-item.js';
import type { TimeWindow } from './time-window.js';

export type Item = Record<string, AttributeValue>;

export interface Filters {
  readonly type?: string;
  readonly status?: string;
}

/**
 * Items per request when reading a whole window: sixteen shards are read at once and each holds
 * its page until merged, so this bounds what is held (a page of DynamoDB's 1 MB each would be
 * 16 MB of text and several times that parsed) at about one query per thousand transactions.
 */
export const windowPageSize = 1000;

/** Where to read, and items per request (`Limit`), so a small `--limit` reads no more. */
export interface QueryContext {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly pageSize?: number;
  /**
   * The declaration items are read under, which also names the list indexes; tests pass a
   * fixture's. @default transactionFields
   */
  readonly fields?: TransactionFields;
}

/** The recorded transaction and every conflicting delivery kept for audit, newest first. */
export async function getTransaction(
  { client, tableName, fields }: QueryContext,
  reference: string,
): Promise<{ transaction: StoredItem | undefined; conflicts: StoredItem[] }> {
  const key = { [attributes.reference]: { S: reference } };
  const [stored, conflicts] = await Promise.all([
    client.send(new GetItemCommand({ TableName: tableName, Key: key, ConsistentRead: true })),
    collect(
      newestByKey(
        { client, tableName, fields },
        indexNamesOf().byConflictOf,
        attributes.conflictOf,
        reference,
      ),
    ),
  ]);
  // Only a transaction is shown as the transaction (a conflict item's key is derived anyway).
  const item =
    stored.Item?.record?.S === 'transaction' ? storedItem(stored.Item, fields) : undefined;
  return { transaction: item, conflicts };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * A user's transactions in any letter case, newest first, from the `byUser` index; within
 * `window` if given.
 */
export function listByUsername(
  context: QueryContext,
  username: string,
  filters: Filters,
  window?: TimeWindow,
) {
  const { byUser } = indexNamesOf(context.fields);
  const key = foldedUsername(username);
  return newestByKey(context, byUser, attributes.usernameKey, key, filters, window);
}

/**
 * The items whose `attribute`, the partition key of `index`, is `value`: newest first, and
 * received in `window` when given (the index's sort key is `receivedAt`).
 */
function newestByKey(
  context: QueryContext,
  index: string,
  attribute: string,
  value: string,
  filters: Filters = {},
  window?: TimeWindow,
): AsyncGenerator<StoredItem> {
  const names = { '#key': attribute, ...(window && { '#at': attributes.receivedAt }) };
  const values = {
    ':key': { S: value },
    ...(window && { ':since': { S: window.since }, ':until': { S: window.lastIncluded } }),
  };
  return queryItems(context, {
    TableName: context.tableName,
    IndexName: index,
    KeyConditionExpression: window
      ? '#key = :key AND #at BETWEEN :since AND :until'
      : '#key = :key',
    ...withFilter(filters, names, values),
    ScanIndexForward: false,
  });
}

/**
 * Received in the window, newest first: one `byTime` range query per shard, merged. With
 * `only`, each entry carries just those attributes (and the reference and time it is ordered
 * by): a reader that needs a few fields of a million entries parses and holds that much less
 * (see byTimeProjection).
 */
export function listByTime(
  context: QueryContext,
  window: TimeWindow,
  filters: Filters,
  only?: readonly string[],
): AsyncGenerator<StoredItem> {
  const { byTime } = indexNamesOf(context.fields);
  const projection = byTimeProjection(only, context.fields);
  const paged = { ...context, pageSize: context.pageSize ?? windowPageSize };
  const shard = (index: number) =>
    queryItems(paged, {
      TableName: context.tableName,
      IndexName: byTime,
      KeyConditionExpression: '#shard = :shard AND #at BETWEEN :since AND :until',
      ...withFilter(
        filters,
        { '#shard': attributes.timeShard, '#at': attributes.receivedAt, ...projection.names },
        {
          ':shard': { S: String(index) },
          ':since': { S: window.since },
          ':until': { S: window.lastIncluded },
        },
      ),
      ...projection.expression,
      ScanIndexForward: false,
    });
  return mergeNewestFirst(Array.from({ length: timeShards }, (_, index) => shard(index)));
}

/** The whole table (`--scan`, never a fallback): a scan has no order, so it is sorted whole. */
export async function* scanTransactions(
  { client, tableName, fields }: QueryContext,
  filters: Filters,
): AsyncGenerator<StoredItem> {
  const items: StoredItem[] = [];
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      ...withFilter(filters, { '#record': 'record' }, { ':transaction': { S: 'transaction' } }, [
        '#record = :transaction',
      ]),
    },
  );
  for await (const page of pages) {
    items.push(...(page.Items ?? []).map((item) => storedItem(item, fields)));
  }
  yield* items.sort(compareNewestFirst);
}

async function* queryItems(
  { client, pageSize, fields }: QueryContext,
  input: QueryCommandInput,
): AsyncGenerator<StoredItem> {
  for await (const page of paginateQuery({ client, ...(pageSize ? { pageSize } : {}) }, input)) {
    for (const item of page.Items ?? []) yield storedItem(item, fields);
  }
}

/** `--type`/`--status` (reserved words): applied after the key condition reads. */
function withFilter(
  filters: Filters,
  names: Record<string, string>,
  values: Record<string, AttributeValue>,
  conditions: string[] = [],
): Pick<
  QueryCommandInput,
  'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
> {
  const allNames = { ...names };
  const allValues = { ...values };
  const all = [...conditions];
  for (const name of ['type', 'status'] as const) {
    const value = filters[name];
    if (!value) continue;
    allNames[`#${name}`] = name;
    allValues[`:${name}`] = { S: value };
    all.push(`#${name} = :${name}`);
  }
  return {
    ExpressionAttributeNames: allNames,
    ExpressionAttributeValues: allValues,
    ...(all.length > 0 ? { FilterExpression: all.join(' AND ') } : {}),
  };
}

/** Newest first; equal times by reference, so the order is total and stable between runs. */
function compareNewestFirst(a: StoredItem, b: StoredItem): number {
  const at = (item: StoredItem) => String(item.receivedAt ?? '');
  const ref = (item: StoredItem) => String(item.reference ?? '');
  return at(b).localeCompare(at(a)) || ref(a).localeCompare(ref(b));
}

/** Merges newest-first streams, reading each only as far as needed; stopping closes them all. */
export function mergeNewestFirst(
  streams: readonly AsyncIterable<StoredItem>[],
): AsyncGenerator<StoredItem> {
  return mergeSorted(streams, compareNewestFirst);
}

/** The first `limit` items of a stream, then stops it. */
export async function* take<T>(stream: AsyncIterable<T>, limit: number): AsyncGenerator<T> {
  if (limit <= 0) return;
  let count = 0;
  for await (const item of stream) {
    yield item;
    if (++count >= limit) return;
  }
}

/** BatchGetItem's limit of keys per request. */
export const maxKeysPerBatch = maxKeysPerRequest;

/** The transaction items among `references` (at most 100), by key, consistently read. */
export async function itemsByReference(
  { client, tableName }: QueryContext,
  references: readonly string[],
): Promise<Map<string, Item>> {
  if (references.length > maxKeysPerBatch) {
    throw new RangeError(`at most ${maxKeysPerBatch} references per lookup`);
  }
  const found = new Map<string, Item>();
  const items = await itemsByKey({ client, tableName }, attributes.reference, references, {
    consistent: true,
  });
  for (const item of items) {
    const reference = item[attributes.reference]?.S;
    if (item.record?.S === 'transaction' && reference) found.set(reference, item);
  }
  return found;
}

/** The transaction items received in the window, whole, in batches of up to a hundred. */
export async function* itemsInWindow(
  { client, tableName, fields }: QueryContext,
  window: TimeWindow,
): AsyncGenerator<Item[]> {
  let references: string[] = [];
  // The index carries the list fields only: its entries are read back from the table by key,
  // so only the reference (and the time they are merged by) is read from it.
  const readBack = async () => {
    const found = await itemsByReference({ client, tableName }, references);
    const items = references.map((reference) => found.get(reference));
    references = [];
    return items.filter((item) => item !== undefined);
  };
  for await (const entry of listByTime({ client, tableName, fields }, window, {}, [])) {
    if (references.push(String(entry.reference)) === maxKeysPerBatch) yield await readBack();
  }
  if (references.length > 0) yield await readBack();
}

/** The conflict audit items, all or those received in `window` (a sparse index: cheap). */
export async function* conflictItems(
  { client, tableName }: QueryContext,
  window?: TimeWindow,
): AsyncGenerator<Item> {
  const inWindow = window && {
    FilterExpression: '#at BETWEEN :since AND :until',
    ExpressionAttributeNames: { '#at': attributes.receivedAt },
    ExpressionAttributeValues: {
      ':since': { S: window.since },
      ':until': { S: window.lastIncluded },
    },
  };
  for await (const page of paginateScan(
    { client },
    { TableName: tableName, IndexName: indexNamesOf().byConflictOf, ...inWindow },
  )) {
    yield* page.Items ?? [];
  }
}
