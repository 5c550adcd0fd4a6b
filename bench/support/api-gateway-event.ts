import type { APIGatewayProxyEvent } from 'aws-lambda';
import { toApiGatewayEvent } from '../../scripts/local/api-gateway-event.js';

let sequence = 0;

/**
 * A POST /callback as API Gateway (REST, payload 1.0) hands it to Lambda, built by local mode's
 * own adapter so it carries every field the real service fills in: Powertools Parser validates
 * the whole event, so a trimmed-down test event would fail the baseline and flatter ours.
 */
export function apiGatewayEvent(
  body: string,
  options: { apiKey?: string; contentType?: string } = {},
): APIGatewayProxyEvent {
  const rawHeaders = [
    'Accept',
    '*/*',
    'Content-Type',
    options.contentType ?? 'application/json',
    'Host',
    'abc123.execute-api.eu-west-1.amazonaws.com',
    'User-Agent',
    'gateway-callbacks/1.0',
    ...(options.apiKey === undefined ? [] : ['x-api-key', options.apiKey]),
  ];
  return toApiGatewayEvent(
    {
      method: 'POST',
      target: '/callback',
      rawHeaders,
      body: Buffer.from(body, 'utf8'),
      sourceIp: '203.0.113.7',
      localPort: 443,
      httpVersion: '1.1',
    },
    {
      requestId: `bench-${process.pid}-${++sequence}`,
      stage: 'prod',
      resource: '/callback',
      receivedAt: new Date(),
    },
  );
}
