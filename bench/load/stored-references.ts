import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';

/** Every transaction reference in the table, read straight from the engine after the run. */
export async function storedReferences(endpoint: string, tableName: string): Promise<Set<string>> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const references = new Set<string>();
  try {
    let startKey: Record<string, never> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: tableName,
          ConsistentRead: true,
          ProjectionExpression: '#reference, #record',
          ExpressionAttributeNames: { '#reference': 'reference', '#record': 'record' },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        if (item.record?.S === 'transaction' && item.reference?.S) references.add(item.reference.S);
      }
      startKey = page.LastEvaluatedKey as Record<string, never> | undefined;
    } while (startKey);
  } finally {
    client.destroy();
  }
  return references;
}
