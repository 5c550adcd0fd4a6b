import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { oneAttemptPerCall } from '../budget/attempts.js';

/**
 * The DynamoDB client: one attempt per call, each bounded by the per-attempt timeout. The store
 * retries (see `budget/attempts.ts`), where the invocation's time budget is known, so a slow
 * DynamoDB becomes a 503 the gateway retries, never a Lambda timeout with an unknown outcome.
 * Endpoint, region and credentials, when given (local mode), override the SDK's own chain.
 */
export function createDynamoDbClient(
  options: { timeoutMs: number } & Pick<
    DynamoDBClientConfig,
    'endpoint' | 'region' | 'credentials'
  >,
): DynamoDBClient {
  const { timeoutMs, ...connection } = options;
  return new DynamoDBClient({ ...connection, ...oneAttemptPerCall(timeoutMs) });
}
