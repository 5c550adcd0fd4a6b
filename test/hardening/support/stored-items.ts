import {
  type AttributeValue,
  type DynamoDBClient,
  GetItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';

export type StoredItem = Record<string, AttributeValue>;

/** The item stored under `reference`, read strongly consistent, straight from the engine. */
export async function storedItem(
  client: DynamoDBClient,
  tableName: string,
  reference: string,
): Promise<StoredItem | undefined> {
  const output = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: { reference: { S: reference } },
      ConsistentRead: true,
    }),
  );
  return output.Item;
}

/** Every item in the table (all pages), with only the attributes named. */
export async function scanAll(
  client: DynamoDBClient,
  tableName: string,
  attributes: readonly string[],
): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  let startKey: StoredItem | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(','),
        ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
