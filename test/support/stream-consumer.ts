import { vi } from 'vitest';
import type { EventBridgePublisher } from '../../lambda/events/event-publisher.js';
import { publishStreamRecords } from '../../lambda/events/publish-stream-records.js';
import { streamBatchHandler } from '../../lambda/events/stream-batch-handler.js';
import { createLogger, createMetrics } from '../../lambda/observability/telemetry.js';

/**
 * The stream consumer wired as lambda/stream-consumer.ts wires it, around the test's publisher.
 * `errors` spies on (and silences) its error log.
 */
export function streamConsumerWith(
  publisher: EventBridgePublisher,
  options: { timeBudgetMarginMs?: number } = {},
) {
  const logger = createLogger();
  const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
  const metrics = createMetrics();
  const publish = publishStreamRecords({
    publisher,
    eventBusName: 'transactions',
    logger,
    metrics,
  });
  const handler = streamBatchHandler({ publish, logger, metrics, ...options });
  return { handler, errors };
}
