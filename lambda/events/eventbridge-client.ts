import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { oneAttemptPerCall } from '../budget/attempts.js';

/** Per-attempt PutEvents timeout unless configured (`EVENTBRIDGE_TIMEOUT_MS`). */
export const defaultEventBridgeTimeoutMs = 3000;

/**
 * The EventBridge client: one attempt per call, bounded by the per-attempt timeout. The publisher
 * retries where the invocation's time budget is known, so a slow EventBridge fails records
 * (redelivered by the stream) instead of timing the whole invocation out.
 */
export function createEventBridgeClient(
  options: { timeoutMs: number } = { timeoutMs: defaultEventBridgeTimeoutMs },
): EventBridgeClient {
  return new EventBridgeClient(oneAttemptPerCall(options.timeoutMs));
}
