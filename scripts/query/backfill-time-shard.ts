import { type DynamoDBClient, paginateScan, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { attributes } from '../../lambda/storage/table-definition.js';
import { timeShard } from '../../lambda/storage/transaction-item.js';

/**
 * Upgrading from the day-bucket index: gives every transaction item written before `byTime`
 * existed its `timeShard`, so the index holds it too. Reads only the keys of items that lack the
 * attribute, and writes conditionally, so running it again (or beside the receiver) is harmless.
 * Returns how many items it updated.
 */
export async function backfillTimeShard(
  client: DynamoDBClient,
  tableName: string,
): Promise<number> {
  let updated = 0;
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      FilterExpression: '#record = :transaction AND attribute_not_exists(#shard)',
      ProjectionExpression: '#reference',
      ExpressionAttributeNames: {
        '#record': 'record',
        '#shard': attributes.timeShard,
        '#reference': attributes.reference,
      },
      ExpressionAttributeValues: { ':transaction': { S: 'transaction' } },
    },
  );
  for await (const page of pages) {
    for (const key of page.Items ?? []) {
      const reference = key[attributes.reference]?.S;
      if (reference === undefined) continue;
      await client
        .send(
          new UpdateItemCommand({
            TableName: tableName,
            Key: { [attributes.reference]: { S: reference } },
            UpdateExpression: 'SET #shard = :shard',
            ConditionExpression: 'attribute_exists(#reference) AND attribute_not_exists(#shard)',
            ExpressionAttributeNames: {
              '#shard': attributes.timeShard,
              '#reference': attributes.reference,
            },
            ExpressionAttributeValues: { ':shard': { S: String(timeShard(reference)) } },
          }),
        )
        .then(
          () => updated++,
          (error: unknown) => {
            // Someone (another run) set it meanwhile: nothing left to do for this item.
            if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
          },
        );
    }
  }
  return updated;
}
