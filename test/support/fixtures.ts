import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { SerializableValue } from '../../lambda/json/json-text.js';
import { type SignOptions, signedBody } from '../../scripts/gateway/gateway-signer.js';

/** The gateway's worked examples A and B of docs/callback-hash.md. */
export const specKey = '3f1c9a7e52b84d0c9e6a1b2d4c8f7e01';

export const exampleA = {
  hashedText:
    '{"id":7,"username":"ann","firstName":"Ann","lastName":"Lee","amount":1000,"currency":"USD","type":"Deposit","status":"Confirm","message":"","reference":"ref-0001","hash":""}',
  hash: 'eee7fbf9b3a904b3aa25cc776534524e18aee2d567cabb366323bba0a5607f9c',
};

export const exampleB = {
  /** The wire body with names as raw UTF-8. */
  utf8Body:
    '{"id":1048577,"username":"deniz.kaya","firstName":"Çağrı","lastName":"Öztürk","amount":250075,"currency":"TRY","type":"Withdrawal","status":"Reject","message":"Hesap doğrulanamadı","reference":"5b0c2f6e-7d4a-4c1b-9a3e-2f8d6b1c0e94","hash":"3e20f227d66c2d34684a1b284f5e909bf8cb2113bea72cf0a83adf6b4c7cf85d"}',
  /** The same body with names escaped exactly as in the hashed text. */
  escapedBody:
    '{"id":1048577,"username":"deniz.kaya","firstName":"\\u00c7a\\u011fr\\u0131","lastName":"\\u00d6zt\\u00fcrk","amount":250075,"currency":"TRY","type":"Withdrawal","status":"Reject","message":"Hesap do\\u011frulanamad\\u0131","reference":"5b0c2f6e-7d4a-4c1b-9a3e-2f8d6b1c0e94","hash":"3e20f227d66c2d34684a1b284f5e909bf8cb2113bea72cf0a83adf6b4c7cf85d"}',
  hash: '3e20f227d66c2d34684a1b284f5e909bf8cb2113bea72cf0a83adf6b4c7cf85d',
};

let sequence = 0;

/** A valid transaction in the gateway's member order; each call gets a fresh reference. */
export function transaction(
  overrides: Record<string, SerializableValue> = {},
): Record<string, SerializableValue> {
  sequence += 1;
  return {
    id: 1000 + sequence,
    username: 'deniz.kaya',
    firstName: 'Çağrı',
    lastName: 'Öztürk',
    amount: 250075,
    currency: 'TRY',
    type: 'Deposit',
    status: 'Confirm',
    message: '',
    reference: `ref-${process.pid}-${Date.now()}-${sequence}`,
    ...overrides,
  };
}

/** A body signed as the gateway signs it. */
export function signed(
  fields: Record<string, SerializableValue>,
  key = specKey,
  options?: SignOptions,
): string {
  return signedBody(fields, key, options);
}

/** An API Gateway REST proxy event (payload 1.0) for a POST /callback. */
export function callbackEvent(
  body: string | null,
  options: { headers?: Record<string, string>; base64?: boolean; requestId?: string } = {},
): APIGatewayProxyEvent {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'x-api-key': specKey,
    ...options.headers,
  };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) delete headers[name];
  }
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
    body: options.base64 && body !== null ? Buffer.from(body, 'utf8').toString('base64') : body,
    isBase64Encoded: options.base64 ?? false,
    requestContext: {
      requestId: options.requestId ?? `req-${++sequence}`,
      identity: { sourceIp: '203.0.113.7' },
      stage: 'prod',
    } as APIGatewayProxyEvent['requestContext'],
  };
}

/**
 * A Lambda context, new for each invocation as Lambda's own: the receiver's middlewares write to
 * it (the key that matched, a refusal left unkept), which must not reach the next invocation.
 */
export const lambdaContext = (): Context =>
  ({
    functionName: 'callback-receiver',
    functionVersion: '$LATEST',
    awsRequestId: 'lambda-request',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:callback-receiver',
    memoryLimitInMB: '512',
    getRemainingTimeInMillis: () => 10_000,
  }) as unknown as Context;
