import { loadConfig, streamConsumerConfigSchema } from './config/config.js';
import { EventBridgePublisher } from './events/event-publisher.js';
import { createEventBridgeClient } from './events/eventbridge-client.js';
import { publishStreamRecords } from './events/publish-stream-records.js';
import { streamBatchHandler } from './events/stream-batch-handler.js';
import { createLogger, createMetrics } from './observability/telemetry.js';

/**
 * The stream consumer's Lambda entry: composition only, run once per cold start. It reads the
 * table's stream, never the request path, so a callback's answer never waits on EventBridge.
 */
const config = loadConfig(process.env, streamConsumerConfigSchema);
const logger = createLogger();
const metrics = createMetrics();

export const handler = streamBatchHandler({
  publish: publishStreamRecords({
    publisher: new EventBridgePublisher(createEventBridgeClient(config.eventBridge), {
      attemptTimeoutMs: config.eventBridge.timeoutMs,
      maxEntryAttempts: config.eventBridge.maxAttempts,
    }),
    eventBusName: config.eventBusName,
    logger,
    metrics,
  }),
  logger,
  metrics,
  timeBudgetMarginMs: config.timeBudgetMarginMs,
});
