import { type DynamoDBClient, paginateScan, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { attributes } from '../../../lambda/storage/table-definition.js';
import { usernameKey } from '../../../lambda/storage/transaction-item.js';

/**
 * Rewrites each transaction's username index key as this version derives it (the username in
 * lower case), where a data folder made by an older version holds it as sent: without it, a
 * user stored as `Alice` would be missing from the search for `alice`. Run after a migration,
 * when the table is read whole anyway; each write is conditioned on the username it was
 * derived from, so a transaction changed meanwhile is left to its own write.
 *
 * @returns how many keys were rewritten.
 */
export async function foldUsernameKeys(client: DynamoDBClient, tableName: string): Promise<number> {
  let rewritten = 0;
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      ConsistentRead: true,
      FilterExpression: '#record = :transaction AND attribute_exists(#key)',
      ExpressionAttributeNames: {
        '#record': 'record',
        '#key': attributes.usernameKey,
        '#ref': attributes.reference,
      },
      ExpressionAttributeValues: { ':transaction': { S: 'transaction' } },
      ProjectionExpression: '#ref, username, #key',
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const username = item.username?.S;
      const wanted =
        username === undefined ? undefined : usernameKey(username)[attributes.usernameKey];
      if (wanted?.S === item[attributes.usernameKey]?.S) continue;
      await client.send(
        new UpdateItemCommand({
          TableName: tableName,
          Key: { [attributes.reference]: item[attributes.reference] as { S: string } },
          ConditionExpression: 'username = :username',
          ExpressionAttributeNames: { '#key': attributes.usernameKey },
          ExpressionAttributeValues: {
            ':username': { S: username as string },
            ...(wanted && { ':key': wanted }),
          },
          UpdateExpression: wanted ? 'SET #key = :key' : 'REMOVE #key',
        }),
      );
      rewritten += 1;
    }
  }
  return rewritten;
}
