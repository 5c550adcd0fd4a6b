import type { EventBridgeClient, EventBridgeClientConfig } from '@aws-sdk/client-eventbridge';
import type { StreamConsumerConfig } from './config/config.js';
import { EventBridgePublisher, type EventPublisher } from './events/event-publisher.js';
import { createEventBridgeClient } from './events/eventbridge-client.js';
import { publishStreamRecords } from './events/publish-stream-records.js';
import { type StreamBatchHandler, streamBatchHandler } from './events/stream-batch-handler.js';
import type { JsonLogger } from './observability/json-logger.js';
import { createMetrics } from './observability/powertools-metrics.js';
import { createLogger } from './observability/telemetry.js';

/** What a caller may put in place of the parts `config` describes (tests, local tools). */
export interface StreamConsumerParts {
  /** Connection settings of the EventBridge client; by default the SDK's own chain decides. */
  readonly eventBridge?: Pick<EventBridgeClientConfig, 'endpoint' | 'region' | 'credentials'>;
  /** @default an `EventBridgePublisher` on a client built from `config.eventBridge` */
  readonly publisher?: EventPublisher;
  /** @default a JSON logger named by `config.telemetry` */
  readonly logger?: JsonLogger;
}

export interface StreamConsumer {
  /** The handler as Lambda calls it. */
  readonly handler: StreamBatchHandler;
  /** Closes the EventBridge client's connections; Lambda never calls it. */
  close(): void;
}

/**
 * The stream consumer's composition root, built from `config` alone, as `createReceiver` builds
 * the receiver: Lambda's entry and the tests build the same consumer.
 */
export function createStreamConsumer(
  config: StreamConsumerConfig,
  parts: StreamConsumerParts = {},
): StreamConsumer {
  const logger = parts.logger ?? createLogger(config.telemetry);
  const metrics = createMetrics(config.telemetry);
  let client: EventBridgeClient | undefined;
  const ownPublisher = () => {
    client = createEventBridgeClient({
      timeoutMs: config.eventBridge.timeoutMs,
      ...parts.eventBridge,
    });
    return new EventBridgePublisher(client, {
      attemptTimeoutMs: config.eventBridge.timeoutMs,
      maxEntryAttempts: config.eventBridge.maxAttempts,
    });
  };
  const publisher = parts.publisher ?? ownPublisher();
  const handler = streamBatchHandler({
    publish: publishStreamRecords({
      publisher,
      eventBusName: config.eventBusName,
      logger,
      metrics,
    }),
    logger,
    metrics,
    timeBudgetMarginMs: config.timeBudgetMarginMs,
  });
  return { handler, close: () => client?.destroy() };
}
