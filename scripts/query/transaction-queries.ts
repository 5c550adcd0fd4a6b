import {
  type DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { attributes, indexNames, receivedShards } from '../../lambda/storage/table-definition.js';
import type { Item } from './item-json.js';
import type { TimeWindow } from './time-window.js';

export interface Filters {
  readonly type?: string;
  readonly status?: string;
}

/** The recorded transaction and every conflicting delivery kept for audit, newest first. */
export async function getTransaction(
  client: DynamoDBClient,
  tableName: string,
  reference: string,
): Promise<{ transaction: Item | undefined; conflicts: Item[] }> {
  const [stored, conflicts] = await Promise.all([
    client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { [attributes.reference]: { S: reference } },
        ConsistentRead: true,
      }),
    ),
    queryAll(client, {
      TableName: tableName,
      IndexName: indexNames.byConflictOf,
      KeyConditionExpression: '#of = :reference',
      ExpressionAttributeNames: { '#of': attributes.conflictOf },
      ExpressionAttributeValues: { ':reference': { S: reference } },
      ScanIndexForward: false,
    }),
  ]);
  // A conflict audit item has a derived key, so a reference never fetches one by accident;
  // still, only a transaction is shown as the transaction.
  const item = stored.Item?.record?.S === 'transaction' ? stored.Item : undefined;
  return { transaction: item, conflicts };
}

/** A user's transactions, newest first, from the `byUsername` index. */
export function listByUsername(
  client: DynamoDBClient,
  tableName: string,
  username: string,
  limit: number,
  filters: Filters,
): Promise<Item[]> {
  return queryUpTo(client, limit, {
    TableName: tableName,
    IndexName: indexNames.byUsername,
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
 * Transactions received in a window, newest first, from the `byReceivedShard` index. A day's
 * bucket is split into shards to spread writes, so each day costs one query per shard; they run
 * in parallel and are merged. Days are read newest first and reading stops once `limit` items
 * are in hand, since an older day cannot hold anything newer.
 */
export async function listByTime(
  client: DynamoDBClient,
  tableName: string,
  window: TimeWindow,
  limit: number,
  filters: Filters,
): Promise<Item[]> {
  const found: Item[] = [];
  for (const day of window.days) {
    const shards = await Promise.all(
      Array.from({ length: receivedShards }, (_, shard) =>
        queryUpTo(client, limit, {
          TableName: tableName,
          IndexName: indexNames.byReceivedShard,
          KeyConditionExpression: '#shard = :shard AND #at BETWEEN :since AND :until',
          ...withFilter(
            filters,
            { '#shard': attributes.receivedShard, '#at': attributes.receivedAt },
            {
              ':shard': { S: `${day}#${shard}` },
              ':since': { S: window.since },
              ':until': { S: window.lastIncluded },
            },
          ),
          ScanIndexForward: false,
        }),
      ),
    );
    found.push(
      ...shards
        .flat()
        .sort(newestFirst)
        .slice(0, limit - found.length),
    );
    if (found.length >= limit) break;
  }
  return found;
}

/** The whole table, read page by page: only on request (`--scan`), never as a fallback. */
export async function scanTransactions(
  client: DynamoDBClient,
  tableName: string,
  limit: number,
  filters: Filters,
): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  const filter = withFilter(
    filters,
    { '#record': 'record' },
    { ':transaction': { S: 'transaction' } },
    ['#record = :transaction'],
  );
  do {
    const page = await client.send(
      new ScanCommand({ TableName: tableName, ...filter, ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items.sort(newestFirst).slice(0, limit);
}

function newestFirst(a: Item, b: Item): number {
  const at = (item: Item) => item[attributes.receivedAt]?.S ?? '';
  const ref = (item: Item) => item[attributes.reference]?.S ?? '';
  return at(b).localeCompare(at(a)) || ref(a).localeCompare(ref(b));
}

/**
 * Adds `--type`/`--status` as a filter expression. `type` and `status` are DynamoDB reserved
 * words, hence the placeholders. Filters apply after the key condition reads, so a filtered
 * query may need more pages to fill `limit` (queryUpTo keeps reading).
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

/** Reads pages until `limit` items (after filtering) or the end. */
async function queryUpTo(
  client: DynamoDBClient,
  limit: number,
  input: QueryCommandInput,
): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: QueryCommandInput['ExclusiveStartKey'];
  do {
    const page = await client.send(
      new QueryCommand({
        ...input,
        // Without a filter every item read counts, so read no more than needed.
        ...(input.FilterExpression || !Number.isFinite(limit)
          ? {}
          : { Limit: limit - items.length }),
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items.slice(0, limit);
}

async function queryAll(client: DynamoDBClient, input: QueryCommandInput): Promise<Item[]> {
  return queryUpTo(client, Number.POSITIVE_INFINITY, input);
}
