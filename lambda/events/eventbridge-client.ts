import { EventBridgeClient } from '@aws-sdk/client-eventbridge';

/** Per-attempt timeout and attempts of one PutEvents call; see the function's timeout in infra. */
export const eventBridgeTimeoutMs = 3000;
export const eventBridgeMaxAttempts = 3;

/**
 * The EventBridge client, with each call bounded so that a batch's requests finish inside the
 * function's timeout: a slow EventBridge then fails records (retried by the stream) instead of
 * timing the whole invocation out.
 */
export function createEventBridgeClient(): EventBridgeClient {
  return new EventBridgeClient({
    maxAttempts: eventBridgeMaxAttempts,
    requestHandler: {
      connectionTimeout: eventBridgeTimeoutMs,
      requestTimeout: eventBridgeTimeoutMs,
    },
  });
}
