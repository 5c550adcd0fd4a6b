import { BatchWriteItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../lambda/storage/transaction-item.js';

/**
 * Puts up to 25 items in one BatchWriteItem, sending again whatever the engine left unprocessed
 * until none is left. For seeding local engines (tests, bench): no backoff between the sends.
 */
export async function putBatch(
  client: DynamoDBClient,
  tableName: string,
  items: readonly Item[],
): Promise<void> {
  let batch = items;
  while (batch.length > 0) {
    const { UnprocessedItems } = await client.send(
      new BatchWriteItemCommand({
        RequestItems: { [tableName]: batch.map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
    batch = (UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
      request.PutRequest?.Item ? [request.PutRequest.Item] : [],
    );
  }
}
