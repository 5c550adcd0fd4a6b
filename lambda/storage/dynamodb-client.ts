import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * The DynamoDB client: one attempt per call, each bounded by the per-attempt timeout. The store
 * retries (see `budget/attempts.ts`), where the invocation's time budget is known, so a slow
 * DynamoDB becomes a 503 the gateway retries, never a Lambda timeout with an unknown outcome.
 * The endpoint comes from the SDK's own `AWS_ENDPOINT_URL_DYNAMODB` when set (local engines).
 */
export function createDynamoDbClient(options: { timeoutMs: number }): DynamoDBClient {
  return new DynamoDBClient({
    maxAttempts: 1,
    requestHandler: {
      connectionTimeout: options.timeoutMs,
      requestTimeout: options.timeoutMs,
      // Without it the SDK only logs a warning when requestTimeout passes and keeps waiting.
      throwOnRequestTimeout: true,
    },
  });
}
