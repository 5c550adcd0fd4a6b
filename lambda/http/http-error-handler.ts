import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { CallbackContext } from './callback-context.js';
import { problemResponse } from './problem-response.js';

/**
 * Turns whatever the steps after it throw into a problem response, as middy's
 * http-error-handler does: the one place an error becomes an answer. Registered after the
 * middlewares that observe the outcome, so its `onError` runs before theirs and they see the
 * status that was answered.
 */
export function httpErrorHandler(): MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  CallbackContext
> {
  return {
    onError: function answerWithProblem(request) {
      request.response = problemResponse(request.error);
    },
  };
}
