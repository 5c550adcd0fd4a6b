import {
  type DynamoDBClient,
  GetItemCommand,
  paginateQuery,
  paginateScan,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { attributes, indexNames, timeShards } from '../../lambda/storage/table-definition.js';
import { compareNewestFirst, mergeNewestFirst } from './newest-first.js';
import { type StoredItem, storedItem } from './stored-item.js';
import type { TimeWindow } from './time-window.js';

export interface Filters {
  readonly type?: string;
  readonly status?: string;
}

/** Where to read and how much per request. */
export interface QueryContext {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** Items per request (`Limit`): a `--limit` smaller than a page reads no more than it needs. */
  readonly pageSize?: number;
}

/** The recorded transaction and every conflicting delivery kept for audit, newest first. */
export async function getTransaction(
  { client, tableName }: QueryContext,
  reference: string,
): Promise<{ transaction: StoredItem | undefined; conflicts: StoredItem[] }> {
  const conflicts: StoredItem[] = [];
  const [stored] = await Promise.all([
    client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { [attributes.reference]: { S: reference } },
        ConsistentRead: true,
      }),
    ),
    (async () => {
      for await (const item of queryItems(
        { client, tableName },
        {
          TableName: tableName,
          IndexName: indexNames.byConflictOf,
          KeyConditionExpression: '#of = :reference',
          ExpressionAttributeNames: { '#of': attributes.conflictOf },
          ExpressionAttributeValues: { ':reference': { S: reference } },
          ScanIndexForward: false,
        },
      )) {
        conflicts.push(item);
      }
    })(),
  ]);
  // A conflict audit item has a derived key, so a reference never fetches one by accident;
  // still, only a transaction is shown as the transaction.
  const item = stored.Item?.record?.S === 'transaction' ? storedItem(stored.Item) : undefined;
  return { transaction: item, conflicts };
}

/** A user's transactions, newest first, from the `byUser` index. */
export function listByUsername(
  context: QueryContext,
  username: string,
  filters: Filters,
): AsyncGenerator<StoredItem> {
  return queryItems(context, {
    TableName: context.tableName,
    IndexName: indexNames.byUser,
    KeyConditionExpression: '#username = :username',
    ...withFilter(
      filters,
      { '#username': attributes.usernameKey },
      { ':username': { S: username } },
    ),
    ScanIndexForward: false,
  });
}

/**
 * Transactions received in `[since, until)`, newest first, from the `byTime` index: one range
 * query per shard ({@link timeShards}, whatever the window's length), merged as they are read,
 * so memory holds one page per shard however many items the window has.
 */
export function listByTime(
  context: QueryContext,
  window: TimeWindow,
  filters: Filters,
): AsyncGenerator<StoredItem> {
  return mergeNewestFirst(
    Array.from({ length: timeShards }, (_, shard) =>
      queryItems(context, {
        TableName: context.tableName,
        IndexName: indexNames.byTime,
        KeyConditionExpression: '#shard = :shard AND #at BETWEEN :since AND :until',
        ...withFilter(
          filters,
          { '#shard': attributes.timeShard, '#at': attributes.receivedAt },
          {
            ':shard': { S: String(shard) },
            ':since': { S: window.since },
            ':until': { S: window.lastIncluded },
          },
        ),
        ScanIndexForward: false,
      }),
    ),
  );
}

/**
 * The whole table, read page by page: only on request (`--scan`), never as a fallback. A scan
 * has no order, so it is read to the end and sorted before anything is shown.
 */
export async function* scanTransactions(
  { client, tableName }: QueryContext,
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
  for await (const page of pages) items.push(...(page.Items ?? []).map(storedItem));
  yield* items.sort(compareNewestFirst);
}

/** Every item a query returns, page by page through the SDK's paginator. */
async function* queryItems(
  { client, pageSize }: QueryContext,
  input: QueryCommandInput,
): AsyncGenerator<StoredItem> {
  const pages = paginateQuery({ client, ...(pageSize ? { pageSize } : {}) }, input);
  for await (const page of pages) {
    for (const item of page.Items ?? []) yield storedItem(item);
  }
}

/**
 * Adds `--type`/`--status` as a filter expression. `type` and `status` are DynamoDB reserved
 * words, hence the placeholders. Filters apply after the key condition reads, so a filtered
 * query may need more pages to fill a `--limit` (the paginator keeps reading).
 */
function withFilter(
  filters: Filters,
  names: Record<string, string>,
  values: NonNullable<QueryCommandInput['ExpressionAttributeValues']>,
  conditions: string[] = [],
): Pick<
  QueryCommandInput,
  'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
> {
  const allNames = { ...names };
  const allValues = { ...values };
  const all = [...conditions];
  if (filters.type) {
    allNames['#type'] = 'type';
    allValues[':type'] = { S: filters.type };
    all.push('#type = :type');
  }
  if (filters.status) {
    allNames['#status'] = 'status';
    allValues[':status'] = { S: filters.status };
    all.push('#status = :status');
  }
  return {
    ExpressionAttributeNames: allNames,
    ExpressionAttributeValues: allValues,
    ...(all.length > 0 ? { FilterExpression: all.join(' AND ') } : {}),
  };
}
