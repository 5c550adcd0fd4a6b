import { EventBridgeClient, type EventBridgeClientConfig } from '@aws-sdk/client-eventbridge';
import { oneAttemptPerCall } from '../budget/attempts.js';
import { limitDefaults } from '../config/config.js';

/**
 * The EventBridge client: one attempt per call, bounded by the per-attempt timeout. The publisher
 * retries where the invocation's time budget is known, so a slow EventBridge fails records
 * (redelivered by the stream) instead of timing the whole invocation out.
 */
export function createEventBridgeClient(
  options: { timeoutMs: number } & Pick<
    EventBridgeClientConfig,
    'endpoint' | 'region' | 'credentials'
  > = limitDefaults.eventBridge,
): EventBridgeClient {
  const { timeoutMs, ...connection } = options;
  return new EventBridgeClient({ ...connection, ...oneAttemptPerCall(timeoutMs) });
}
