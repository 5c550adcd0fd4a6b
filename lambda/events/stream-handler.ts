import { createLogger, createMetrics } from '../observability/telemetry.js';
import { EventBridgePublisher } from './event-publisher.js';
import { createEventBridgeClient } from './eventbridge-client.js';
import { loadEventsConfig } from './events-config.js';
import { publishStreamRecords } from './publish-stream-records.js';
import { streamBatchHandler } from './stream-batch-handler.js';

/**
 * The stream consumer's Lambda entry: composition only, run once per cold start. It reads the
 * table's stream, never the request path, so a callback's answer never waits on EventBridge.
 */
const config = loadEventsConfig();
const logger = createLogger();
const metrics = createMetrics();

export const handler = streamBatchHandler({
  publish: publishStreamRecords({
    publisher: new EventBridgePublisher(createEventBridgeClient()),
    eventBusName: config.eventBusName,
    logger,
    metrics,
  }),
  logger,
  metrics,
});
