import type { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { invocationBudget, type TimeBudget } from '../budget/time-budget.js';
import { limitDefaults } from '../config/config.js';
import { type JsonLogger, logContext } from '../observability/json-logger.js';

export interface StreamBatchHandlerDependencies {
  readonly publish: (
    records: readonly DynamoDBRecord[],
    budget: TimeBudget,
  ) => Promise<DynamoDBBatchResponse>;
  readonly logger: JsonLogger;
  readonly metrics: Metrics;
  /** Kept back from Lambda's remaining time to report the batch's failures. @default `limitDefaults.timeBudgetMarginMs` */
  readonly timeBudgetMarginMs?: number;
}

/** The handler as Lambda calls it. */
export type StreamBatchHandler = (
  event: DynamoDBStreamEvent,
  context: Context,
) => Promise<DynamoDBBatchResponse>;

/**
 * The Lambda adapter for the table stream: log context and metrics around the use case. Failures
 * come back as `batchItemFailures` (the event source mapping must enable
 * `ReportBatchItemFailures`); only an unexpected error fails the whole invocation. The batch runs
 * inside the invocation's time budget, so it ends with its failures reported, never timed out.
 */
export function streamBatchHandler(
  dependencies: StreamBatchHandlerDependencies,
): StreamBatchHandler {
  const { publish, logger, metrics } = dependencies;
  const marginMs = dependencies.timeBudgetMarginMs ?? limitDefaults.timeBudgetMarginMs;
  return middy<DynamoDBStreamEvent, DynamoDBBatchResponse>()
    .use(logContext(logger))
    .use(logMetrics(metrics))
    .handler(async function publishBatch(event, context) {
      const budget = invocationBudget(context, marginMs);
      try {
        return await publish(event.Records, budget);
      } finally {
        budget.release();
      }
    });
}
