import { EventBridgeClient } from '@aws-sdk/client-eventbridge';

/** Per-attempt PutEvents timeout unless configured (`EVENTBRIDGE_TIMEOUT_MS`). */
export const defaultEventBridgeTimeoutMs = 3000;

/**
 * The EventBridge client: one attempt per call, bounded by the per-attempt timeout, which aborts
 * (`throwOnRequestTimeout`). The publisher retries where the invocation's time budget is known,
 * so a slow EventBridge fails records (redelivered by the stream) instead of timing the whole
 * invocation out. The endpoint comes from `AWS_ENDPOINT_URL_EVENTBRIDGE` when set.
 */
export function createEventBridgeClient(
  options: { timeoutMs: number } = { timeoutMs: defaultEventBridgeTimeoutMs },
): EventBridgeClient {
  return new EventBridgeClient({
    maxAttempts: 1,
    requestHandler: {
      connectionTimeout: options.timeoutMs,
      requestTimeout: options.timeoutMs,
      // Without it the SDK only logs a warning when requestTimeout passes and keeps waiting.
      throwOnRequestTimeout: true,
    },
  });
}
