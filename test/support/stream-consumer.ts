import { vi } from 'vitest';
import { loadStreamConsumerConfig } from '../../lambda/config/config.js';
import { createStreamConsumer } from '../../lambda/create-stream-consumer.js';
import type { EventBridgePublisher } from '../../lambda/events/event-publisher.js';
import { createLogger } from '../../lambda/observability/telemetry.js';

/**
 * The stream consumer as lambda/stream-consumer.ts builds it (`createStreamConsumer`), around
 * the test's publisher, on the bus `transactions`. `errors` spies on (and silences) its error log.
 */
export function streamConsumerWith(
  publisher: EventBridgePublisher,
  options: { timeBudgetMarginMs?: number } = {},
) {
  const { timeBudgetMarginMs } = options;
  const config = loadStreamConsumerConfig({
    EVENT_BUS_NAME: 'transactions',
    ...(timeBudgetMarginMs === undefined ? {} : { TIME_BUDGET_MARGIN_MS: `${timeBudgetMarginMs}` }),
  });
  const logger = createLogger(config.telemetry);
  const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
  const { handler } = createStreamConsumer(config, { publisher, logger });
  return { handler, errors };
}
