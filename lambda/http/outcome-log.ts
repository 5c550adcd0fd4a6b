import type { Logger } from '@aws-lambda-powertools/logger';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { CallbackError, ItemRejectedError } from '../callback/errors.js';
import type { CallbackContext } from './callback-context.js';

/**
 * One log line and one metric per callback, whatever the outcome. It only observes: the
 * response is built elsewhere. Logs carry the request id, reference and outcome: never the key,
 * the body or names.
 */
export function outcomeLog(
  logger: Logger,
  metrics: Metrics,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext> {
  return {
    after: function logAcceptedCallback(request) {
      const receipt = request.context.receipt;
      if (!receipt) return;
      metrics.addMetric(receipt.outcome, MetricUnit.Count, 1);
      logger.info('callback accepted', {
        requestId: request.event.requestContext?.requestId,
        reference: receipt.reference,
        outcome: receipt.outcome,
        hashResult: receipt.hashResult,
        status: request.response?.statusCode,
        // Names only: a redelivery that differs outside the interface is still a duplicate.
        ...(receipt.differingMembers ? { differingMembers: receipt.differingMembers } : {}),
      });
    },
    onError: function logRefusedCallback(request) {
      const error = request.error;
      const status = request.response?.statusCode;
      const requestId = request.event.requestContext?.requestId;
      if (!(error instanceof CallbackError)) {
        logger.error('unexpected error', { requestId, status, cause: describeCause(error) });
        return;
      }
      metrics.addMetric(error.outcome, MetricUnit.Count, 1);
      const fields = { requestId, reference: error.reference, outcome: error.outcome, status };
      if (status !== undefined && status >= 500) {
        const reason = error instanceof ItemRejectedError ? error.reason : undefined;
        logger.error('callback not recorded', {
          ...fields,
          reason,
          cause: describeCause(error.cause),
        });
      } else {
        logger.warn('callback refused', { ...fields, detail: error.fieldErrors ?? error.message });
      }
    },
  };
}

/** Name and status of a failure, not its message: SDK messages may quote the request. */
function describeCause(cause: unknown): Record<string, unknown> {
  if (!(cause instanceof Error)) return { name: typeof cause };
  const metadata = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return { name: cause.name, httpStatusCode: metadata?.httpStatusCode };
}
