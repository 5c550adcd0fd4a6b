import type { APIGatewayProxyResult } from 'aws-lambda';
import { CallbackError, RetryableError } from '../callback/errors.js';

/**
 * Refusals as RFC 9457 problem details, the body the `httpErrorHandler` middleware answers with. Unknown errors get
 * a bare 500 that says nothing of their cause, so no stack trace, message or secret can leak.
 */
export function problemResponse(error: unknown): APIGatewayProxyResult {
  const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
  if (!(error instanceof CallbackError)) {
    return {
      statusCode: 500,
      headers,
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Internal error',
        status: 500,
        detail: 'The callback was not recorded; retry later.',
      }),
    };
  }
  if (error instanceof RetryableError) {
    headers['retry-after'] = String(error.retryAfterSeconds);
  }
  return {
    statusCode: error.status,
    headers,
    body: JSON.stringify({
      type: `urn:callback-receiver:problem:${error.problem}`,
      title: error.title,
      status: error.status,
      detail: error.message,
      ...(error.fieldErrors ? { errors: error.fieldErrors } : {}),
    }),
  };
}
