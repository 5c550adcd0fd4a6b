import type { APIGatewayProxyEvent } from 'aws-lambda';

let sequence = 0;

/**
 * A POST /callback as API Gateway (REST, payload 1.0) hands it to Lambda, with every field the
 * real service fills in: Powertools Parser validates the whole event, so a trimmed-down test
 * event would fail the baseline and flatter ours.
 */
export function apiGatewayEvent(
  body: string,
  options: { apiKey?: string; contentType?: string } = {},
): APIGatewayProxyEvent {
  const requestId = `bench-${process.pid}-${++sequence}`;
  const headers: Record<string, string> = {
    Accept: '*/*',
    'Content-Type': options.contentType ?? 'application/json',
    Host: 'abc123.execute-api.eu-west-1.amazonaws.com',
    'User-Agent': 'gateway-callbacks/1.0',
    'X-Amzn-Trace-Id': `Root=1-67000000-${String(sequence).padStart(24, '0')}`,
    'X-Forwarded-For': '203.0.113.7',
    'X-Forwarded-Port': '443',
    'X-Forwarded-Proto': 'https',
  };
  if (options.apiKey !== undefined) headers['x-api-key'] = options.apiKey;
  const now = Date.now();
  return {
    resource: '/callback',
    path: '/callback',
    httpMethod: 'POST',
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authorizer: null,
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      extendedRequestId: `ext-${requestId}`,
      httpMethod: 'POST',
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: '203.0.113.7',
        user: null,
        userAgent: 'gateway-callbacks/1.0',
        userArn: null,
      },
      path: '/prod/callback',
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: new Date(now).toISOString(),
      requestTimeEpoch: now,
      resourceId: 'res123',
      resourcePath: '/callback',
      stage: 'prod',
    },
  };
}
