import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * The DynamoDB client, with retries and timeouts bounded so that `maxAttempts × timeoutMs` plus
 * backoff stays well inside the function's timeout: a slow DynamoDB becomes a 503 the gateway
 * retries, never a Lambda timeout with an unknown outcome. The endpoint comes from the SDK's own
 * `AWS_ENDPOINT_URL_DYNAMODB` when set (local engines).
 */
export function createDynamoDbClient(options: {
  timeoutMs: number;
  maxAttempts: number;
}): DynamoDBClient {
  return new DynamoDBClient({
    maxAttempts: options.maxAttempts,
    requestHandler: {
      connectionTimeout: options.timeoutMs,
      requestTimeout: options.timeoutMs,
      // Without it the SDK only logs a warning when requestTimeout passes and keeps waiting.
      throwOnRequestTimeout: true,
    },
  });
}
