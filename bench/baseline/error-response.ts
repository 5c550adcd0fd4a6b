import { IdempotencyValidationError } from '@aws-lambda-powertools/idempotency';
import type { Logger } from '@aws-lambda-powertools/logger';
import { ParseError } from '@aws-lambda-powertools/parser';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/**
 * Errors to responses, as `@middy/http-error-handler` does: errors with a `statusCode` keep it,
 * a Parser failure is a 422, a delivery whose payload differs from the recorded one a 409.
 */
export function errorResponse(
  logger: Logger,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: function errorResponseOnError(request) {
      const error = request.error;
      const statusCode =
        error instanceof ParseError
          ? 422
          : error instanceof IdempotencyValidationError
            ? 409
            : statusOf(error);
      logger.warn('callback refused', { statusCode, error: error?.name });
      request.response = {
        statusCode,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: statusCode === 500 ? 'Internal error' : error?.message }),
      };
    },
  };
}

function statusOf(error: unknown): number {
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}
