import { loadStreamConsumerConfig } from './config/config.js';
import { createStreamConsumer } from './create-stream-consumer.js';

/**
 * The stream consumer's Lambda entry, built once per cold start from the environment; everything
 * else builds it with {@link createStreamConsumer}. It reads the table's stream, never the
 * request path, so a callback's answer never waits on EventBridge.
 */
export const handler = createStreamConsumer(loadStreamConsumerConfig(process.env)).handler;
