import {
  type AttributeValue,
  BatchGetItemCommand,
  type DynamoDBClient,
  paginateScan,
} from '@aws-sdk/client-dynamodb';
import { attributes, indexNames } from '../../lambda/storage/table-definition.js';
import type { TimeWindow } from '../query/time-window.js';
import { listByTime } from '../query/transaction-queries.js';
import type { ComparedValues } from './gateway-report.js';

export type Item = Record<string, AttributeValue>;

/** What reconcile needs of a recorded transaction: numbers as the exact text DynamoDB holds. */
export interface RecordedTransaction extends ComparedValues {
  readonly reference: string;
  readonly receivedAt: string;
}

/** A conflicting delivery kept for audit: what it claimed, and when. */
export interface KeptConflict extends ComparedValues {
  /** The reference it claimed (the audit item's own key is derived). */
  readonly reference: string;
  readonly receivedAt: string;
  readonly requestId: string;
}

/**
 * Every transaction item received in the window, whole. The index carries only the list
 * fields, so each hundred entries are read back from the table by key (consistent reads).
 */
export async function* itemsInWindow(
  client: DynamoDBClient,
  tableName: string,
  window: TimeWindow,
): AsyncGenerator<Item> {
  let references: string[] = [];
  const readBack = async function* () {
    const found = await itemsByReference(client, tableName, references);
    for (const reference of references) {
      const item = found.get(reference);
      if (item) yield item;
    }
    references = [];
  };
  for await (const entry of listByTime({ client, tableName }, window, {})) {
    references.push(storedText(entry[attributes.reference]));
    if (references.length === maxKeysPerBatch) yield* readBack();
  }
  if (references.length > 0) yield* readBack();
}

/**
 * The window's transactions as reconcile compares them, streamed by the query tool's time-index
 * reader; the index entries carry every compared field.
 */
export async function* recordedInWindow(
  client: DynamoDBClient,
  tableName: string,
  window: TimeWindow,
): AsyncGenerator<RecordedTransaction> {
  for await (const entry of listByTime({ client, tableName }, window, {})) {
    yield {
      reference: storedText(entry.reference),
      receivedAt: storedText(entry.receivedAt),
      amount: storedText(entry.amount),
      currency: storedText(entry.currency),
      type: storedText(entry.type),
      status: storedText(entry.status),
    };
  }
}

/** A string, or a number unmarshalled with `wrapNumbers` (its exact digits in `value`). */
function storedText(value: unknown): string {
  if (typeof value === 'string') return value;
  const digits = (value as { value?: unknown } | undefined)?.value;
  return typeof digits === 'string' ? digits : '';
}

/** BatchGetItem's limit of keys per request. */
export const maxKeysPerBatch = 100;

/**
 * The transaction items among `references` (at most 100), read by key with consistent reads:
 * how a report row received outside the window is still found, and how replay finds its items.
 */
export async function itemsByReference(
  client: DynamoDBClient,
  tableName: string,
  references: readonly string[],
): Promise<Map<string, Item>> {
  if (references.length > maxKeysPerBatch) {
    throw new RangeError(`at most ${maxKeysPerBatch} references per lookup`);
  }
  const found = new Map<string, Item>();
  let keys: Item[] = [...new Set(references)].map((reference) => ({
    [attributes.reference]: { S: reference },
  }));
  while (keys.length > 0) {
    const output = await client.send(
      new BatchGetItemCommand({
        RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } },
      }),
    );
    for (const item of output.Responses?.[tableName] ?? []) {
      if (item.record?.S === 'transaction') found.set(text(item[attributes.reference]), item);
    }
    // Keys DynamoDB did not get to (throttling, 16 MB) come back to be asked again.
    keys = output.UnprocessedKeys?.[tableName]?.Keys ?? [];
  }
  return found;
}

export async function recordedByReference(
  client: DynamoDBClient,
  tableName: string,
  references: readonly string[],
): Promise<Map<string, RecordedTransaction>> {
  const items = await itemsByReference(client, tableName, references);
  return new Map([...items].map(([reference, item]) => [reference, recordedTransaction(item)]));
}

/**
 * Every conflicting delivery kept for audit. The `byConflictOf` index is sparse (only conflict
 * items carry its key), so reading all of it costs the conflicts, not the table.
 */
export async function* keptConflicts(
  client: DynamoDBClient,
  tableName: string,
): AsyncGenerator<KeptConflict> {
  for await (const item of conflictItems(client, tableName)) {
    yield {
      reference: text(item[attributes.conflictOf]),
      receivedAt: text(item[attributes.receivedAt]),
      requestId: text(item.requestId),
      ...comparedValues(item.transaction?.M ?? {}),
    };
  }
}

/** The conflict audit items, all or those received in `window`. */
export async function* conflictItems(
  client: DynamoDBClient,
  tableName: string,
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
    { TableName: tableName, IndexName: indexNames.byConflictOf, ...inWindow },
  )) {
    yield* page.Items ?? [];
  }
}

function recordedTransaction(item: Item): RecordedTransaction {
  return {
    reference: text(item[attributes.reference]),
    receivedAt: text(item[attributes.receivedAt]),
    ...comparedValues(item),
  };
}

function comparedValues(item: Item): ComparedValues {
  return {
    amount: text(item.amount),
    currency: text(item.currency),
    type: text(item.type),
    status: text(item.status),
  };
}

function text(value: AttributeValue | undefined): string {
  return value?.S ?? value?.N ?? '';
}
