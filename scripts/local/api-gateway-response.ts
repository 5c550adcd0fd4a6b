import type { APIGatewayProxyResult } from 'aws-lambda';
import { type GatewayResponse, integrationFailure } from './api-gateway-routes.js';

/** An HTTP response ready to write: headers may repeat. */
export interface HttpResponse {
  readonly statusCode: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Buffer;
}

/**
 * What API Gateway sends back for the function's proxy result: its status, `headers` and
 * `multiValueHeaders` merged, the body base64-decoded when flagged, `Content-Type:
 * application/json` for a body whose type the function did not name, plus the request id headers API Gateway adds.
 * A result that is not a valid proxy response becomes API Gateway's 502.
 */
export function fromProxyResult(result: unknown, requestId: string): HttpResponse {
  if (!isProxyResult(result)) return fromGatewayResponse(integrationFailure, requestId);
  const headers: [string, string][] = [];
  const multi = result.multiValueHeaders ?? {};
  const multiNames = new Set(Object.keys(multi).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    // multiValueHeaders wins for a name in both, as in API Gateway.
    if (!multiNames.has(name.toLowerCase())) headers.push([name, String(value)]);
  }
  for (const [name, values] of Object.entries(multi)) {
    for (const value of values) headers.push([name, String(value)]);
  }
  const text = result.body ?? '';
  if (text !== '' && !headers.some(([name]) => name.toLowerCase() === 'content-type')) {
    headers.push(['Content-Type', 'application/json']);
  }
  headers.push(...requestIdHeaders(requestId));
  const body = result.isBase64Encoded ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  return { statusCode: result.statusCode, headers, body };
}

export function fromGatewayResponse(response: GatewayResponse, requestId: string): HttpResponse {
  return {
    statusCode: response.statusCode,
    headers: [...Object.entries(response.headers), ...requestIdHeaders(requestId)],
    body: Buffer.from(response.body, 'utf8'),
  };
}

function requestIdHeaders(requestId: string): [string, string][] {
  return [['x-amzn-RequestId', requestId]];
}

function isProxyResult(value: unknown): value is APIGatewayProxyResult {
  if (value === null || typeof value !== 'object') return false;
  const { statusCode, body } = value as { statusCode?: unknown; body?: unknown };
  return (
    typeof statusCode === 'number' &&
    Number.isInteger(statusCode) &&
    statusCode >= 100 &&
    statusCode <= 599 &&
    (body === undefined || body === null || typeof body === 'string')
  );
}
