import { describe, expect, it } from 'vitest';
import { type HttpRequest, toApiGatewayEvent } from '../../../scripts/local/api-gateway-event.js';

const context = {
  requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
  stage: 'local',
  resource: '/callback',
  receivedAt: new Date('2026-11-22T03:04:05.678Z'),
};

const request = (overrides: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'POST',
  target: '/callback',
  rawHeaders: ['Host', '127.0.0.1:3000', 'Content-Type', 'application/json'],
  body: Buffer.from('{"id":1}'),
  sourceIp: '203.0.113.7',
  localPort: 3000,
  httpVersion: '1.1',
  ...overrides,
});

describe('toApiGatewayEvent (REST API proxy event, payload 1.0)', () => {
  it('keeps the last value of a repeated header in headers and every value in multiValueHeaders', () => {
    const event = toApiGatewayEvent(
      request({ rawHeaders: ['X-Api-Key', 'first', 'x-api-key', 'second', 'Accept', '*/*'] }),
      context,
    );

    expect(event.headers['X-Api-Key']).toBe('second');
    expect(event.multiValueHeaders['X-Api-Key']).toEqual(['first', 'second']);
    expect(event.headers.Accept).toBe('*/*');
    expect(event.multiValueHeaders.Accept).toEqual(['*/*']);
  });

  it('keeps header names as the client spelled them', () => {
    const event = toApiGatewayEvent(
      request({ rawHeaders: ['x-API-key', 'k', 'CONTENT-type', 'application/json'] }),
      context,
    );

    expect(Object.keys(event.headers)).toEqual(
      expect.arrayContaining(['x-API-key', 'CONTENT-type']),
    );
  });

  it('adds the X-Forwarded-* and X-Amzn-Trace-Id headers API Gateway adds, replacing forged ones', () => {
    const event = toApiGatewayEvent(
      request({
        rawHeaders: [
          'X-Forwarded-For',
          '198.51.100.1',
          'X-Forwarded-Proto',
          'https',
          'X-Amzn-Trace-Id',
          'forged',
        ],
      }),
      context,
    );

    expect(event.headers['X-Forwarded-For']).toBe('198.51.100.1, 203.0.113.7');
    expect(event.multiValueHeaders['X-Forwarded-For']).toEqual(['198.51.100.1, 203.0.113.7']);
    expect(event.headers['X-Forwarded-Proto']).toBe('http');
    expect(event.headers['X-Forwarded-Port']).toBe('3000');
    expect(event.headers['X-Amzn-Trace-Id']).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
  });

  it('hands every body over base64-encoded, bytes untouched, as API Gateway with binaryMediaTypes */* does', () => {
    const body = '{"firstName":"Çağrı","lastName":"𠮷田"}';

    const event = toApiGatewayEvent(request({ body: Buffer.from(body, 'utf8') }), context);

    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body ?? '', 'base64').toString('utf8')).toBe(body);
  });

  it('passes bytes that are not UTF-8 through unchanged, for the function to refuse', () => {
    const bytes = Buffer.from([0x7b, 0x22, 0xc7, 0x61, 0x22, 0x7d]); // {"Ça"} in ISO-8859-9

    const event = toApiGatewayEvent(request({ body: bytes }), context);

    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body ?? '', 'base64')).toEqual(bytes);
  });

  it('keeps a byte order mark in the bytes, for the handler to refuse', () => {
    const event = toApiGatewayEvent(request({ body: Buffer.from('\ufeff{}', 'utf8') }), context);

    expect(Buffer.from(event.body ?? '', 'base64').toString('utf8')).toBe('\ufeff{}');
    expect(event.isBase64Encoded).toBe(true);
  });

  it('sends an empty body as null', () => {
    const event = toApiGatewayEvent(request({ body: Buffer.alloc(0) }), context);

    expect(event.body).toBeNull();
    expect(event.isBase64Encoded).toBe(false);
  });

  it('decodes query parameters, last value single and all values multi; null when there are none', () => {
    const withQuery = toApiGatewayEvent(
      request({ target: '/callback?attempt=1&attempt=2&note=a%20b' }),
      context,
    );
    const without = toApiGatewayEvent(request(), context);

    expect(withQuery.path).toBe('/callback');
    expect(withQuery.queryStringParameters).toEqual({ attempt: '2', note: 'a b' });
    expect(withQuery.multiValueQueryStringParameters).toEqual({
      attempt: ['1', '2'],
      note: ['a b'],
    });
    expect(without.queryStringParameters).toBeNull();
    expect(without.multiValueQueryStringParameters).toBeNull();
  });

  it('fills the request context: request id, source IP, stage, resource path and times', () => {
    const event = toApiGatewayEvent(
      request({ rawHeaders: ['User-Agent', 'gateway/1.0'] }),
      context,
    );

    expect(event).toMatchObject({
      resource: '/callback',
      httpMethod: 'POST',
      pathParameters: null,
      stageVariables: null,
      requestContext: {
        requestId: context.requestId,
        stage: 'local',
        resourcePath: '/callback',
        path: '/local/callback',
        httpMethod: 'POST',
        protocol: 'HTTP/1.1',
        requestTime: '22/Nov/2026:03:04:05 +0000',
        requestTimeEpoch: context.receivedAt.getTime(),
        identity: { sourceIp: '203.0.113.7', userAgent: 'gateway/1.0', apiKey: null },
      },
    });
  });
});
