import { type AttributeValue, GetItemCommand, paginateScan } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { TestTable } from './engines.js';

export type StoredItem = Record<string, AttributeValue>;
type Table = Pick<TestTable, 'client' | 'tableName'>;

/** The item under `key` (e.g. `{ reference }`, `{ digest }`), read strongly consistent. */
export async function storedItem(
  { client, tableName }: Table,
  key: Record<string, string>,
): Promise<StoredItem | undefined> {
  const read = { TableName: tableName, Key: marshall(key), ConsistentRead: true };
  return (await client.send(new GetItemCommand(read))).Item;
}

/** Every item in the table (all pages), with only the attributes named. */
export async function scanAll(
  { client, tableName }: Table,
  attributes: readonly string[],
): Promise<StoredItem[]> {
  const scan = {
    TableName: tableName,
    ConsistentRead: true,
    ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(','),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
  };
  const items: StoredItem[] = [];
  for await (const page of paginateScan({ client }, scan)) items.push(...(page.Items ?? []));
  return items;
}
