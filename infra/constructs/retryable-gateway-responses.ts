import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { maxBodyBytes } from '../../lambda/http/read-body.js';

/** Seconds the gateway is told to wait before retrying a 429/503 the gateway itself produced. */
export const retryAfterSeconds = 1;

/**
 * A throttled Lambda never runs, so it cannot return its own 503. AWS documents that when the
 * Lambda service rejects the invocation (429 TooManyRequestsException) API Gateway answers
 * 500 `{"message":"Internal server error"}` itself and does not retry. That rejection is
 * reported to use the INTEGRATION_FAILURE gateway response (default 504, else DEFAULT_5XX), so
 * both are customized: 503 with Retry-After, as the function answers when DynamoDB is
 * unavailable, instead of a bare 500 a gateway may treat as final. DEFAULT_5XX also covers the
 * other 5xx the gateway generates itself (integration timeout, a crashed function): none of
 * them certainly recorded the callback, and a retry is deduplicated by reference, so "retry
 * later" is always right. Stage throttling (THROTTLED, 429) gets the same Retry-After. The
 * access log's `errorResponseType` shows which one answered.
 */
export function addRetryableGatewayResponses(api: RestApi): void {
  const respond = (id: string, type: ResponseType, status: number, title: string, detail: string) =>
    api.addGatewayResponse(id, {
      type,
      statusCode: String(status),
      responseHeaders: {
        'Retry-After': `'${retryAfterSeconds}'`,
        'Content-Type': "'application/problem+json'",
      },
      templates: {
        'application/json': JSON.stringify({
          type: 'about:blank',
          title,
          status,
          detail,
          requestId: '$context.requestId',
        }),
      },
    });
  const unavailable =
    'The receiver could not take the callback now. Retry after the Retry-After delay.';
  respond(
    'LambdaUnavailable',
    ResponseType.INTEGRATION_FAILURE,
    503,
    'Service Unavailable',
    unavailable,
  );
  respond('Default5xx', ResponseType.DEFAULT_5XX, 503, 'Service Unavailable', unavailable);
  // Over API Gateway's 10 MB (or with waf=false): the same problem body the function gives.
  api.addGatewayResponse('RequestTooLarge', {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    responseHeaders: { 'Content-Type': "'application/problem+json'" },
    templates: {
      'application/json': JSON.stringify({
        type: 'urn:callback-receiver:problem:payload-too-large',
        title: 'Body too large',
        status: 413,
        detail: `The body is larger than ${maxBodyBytes} bytes; it was not recorded.`,
        requestId: '$context.requestId',
      }),
    },
  });
  respond(
    'StageThrottled',
    ResponseType.THROTTLED,
    429,
    'Too Many Requests',
    'Rate limit exceeded. Retry after the Retry-After delay.',
  );
}
