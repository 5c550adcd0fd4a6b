/**
 * The floor the chosen SDK sets: a bundle holding only `DynamoDBClient` and `PutItemCommand`,
 * writing the body under its reference with no checks at all. Nothing built on the same SDK
 * can load faster or bundle smaller, so ours is measured against it. Benchmark only.
 */
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';

const client = new DynamoDBClient({});
const tableName = process.env.TABLE_NAME;

export async function handler(event: { body: string | null; isBase64Encoded?: boolean }) {
  // The API passes bodies as bytes (binaryMediaTypes */*): base64, as every receiver gets them.
  const body = event.isBase64Encoded
    ? Buffer.from(event.body ?? '', 'base64').toString('utf8')
    : (event.body ?? '');
  const { reference } = JSON.parse(body) as { reference: string };
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: { reference: { S: reference }, rawBody: { S: body } },
      ConditionExpression: 'attribute_not_exists(#reference)',
      ExpressionAttributeNames: { '#reference': 'reference' },
    }),
  );
  return { statusCode: 204, body: '' };
}
