import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { oneAttemptPerCall } from '../budget/attempts.js';

/**
 * The DynamoDB client: one attempt per call, each bounded by the per-attempt timeout. The store
 * retries (see `budget/attempts.ts`), where the invocation's time budget is known, so a slow
 * DynamoDB becomes a 503 the gateway retries, never a Lambda timeout with an unknown outcome.
 */
export function createDynamoDbClient(options: { timeoutMs: number }): DynamoDBClient {
  return new DynamoDBClient(oneAttemptPerCall(options.timeoutMs));
}
