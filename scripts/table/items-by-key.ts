import {
  type AttributeValue,
  BatchGetItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';

type Item = Record<string, AttributeValue>;

/** DynamoDB's limit of keys in one BatchGetItem. */
export const maxKeysPerRequest = 100;

/**
 * The items whose partition key `keyName` holds one of `values` (each asked once), a hundred keys
 * a request, asking again for the keys DynamoDB did not get to (throttling, 16 MB). `projection`
 * names the attributes to read, so a caller that needs one attribute reads no body; `consistent`
 * reads what the last write left. A key that holds nothing is simply absent.
 */
export async function itemsByKey(
  { client, tableName }: { readonly client: DynamoDBClient; readonly tableName: string },
  keyName: string,
  values: readonly string[],
  options: { readonly projection?: readonly string[]; readonly consistent?: boolean } = {},
): Promise<Item[]> {
  const { projection, consistent } = options;
  const names = projection && Object.fromEntries(projection.map((name, i) => [`#p${i}`, name]));
  const found: Item[] = [];
  const unique = [...new Set(values)];
  for (let start = 0; start < unique.length; start += maxKeysPerRequest) {
    let keys: Item[] = unique
      .slice(start, start + maxKeysPerRequest)
      .map((value) => ({ [keyName]: { S: value } }));
    while (keys.length > 0) {
      const output = await client.send(
        new BatchGetItemCommand({
          RequestItems: {
            [tableName]: {
              Keys: keys,
              ...(consistent && { ConsistentRead: true }),
              ...(names && {
                ProjectionExpression: Object.keys(names).join(', '),
                ExpressionAttributeNames: names,
              }),
            },
          },
        }),
      );
      found.push(...(output.Responses?.[tableName] ?? []));
      keys = output.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return found;
}
