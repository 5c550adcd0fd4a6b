import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** One HTTP request as the local server read it, before API Gateway's translation. */
export interface HttpRequest {
  readonly method: string;
  /** Path and query as sent, e.g. `/callback?attempt=2`. */
  readonly target: string;
  /** Node's `rawHeaders`: names and values alternating, names as the client spelled them. */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  readonly sourceIp: string;
  readonly localPort: number;
  readonly httpVersion: string;
}

export interface EventContext {
  readonly requestId: string;
  readonly stage: string;
  /** The API resource the request matched, e.g. `/callback`. */
  readonly resource: string;
  readonly receivedAt: Date;
}

/**
 * The REST API proxy event (payload 1.0) API Gateway hands the function: a repeated header or
 * query parameter has its last value in `headers`, all in `multiValue*`; the body is base64, as
 * the stack's `binaryMediaTypes: ['*\/*']` passes bytes through untouched (without it API
 * Gateway would replace non-UTF-8 bytes before the function's own UTF-8 check).
 */
export function toApiGatewayEvent(
  request: HttpRequest,
  context: EventContext,
): APIGatewayProxyEvent {
  const url = new URL(request.target, 'http://localhost');
  const path = decodePath(url.pathname);
  const sent = Array.from(
    { length: request.rawHeaders.length / 2 },
    (_, i) => request.rawHeaders.slice(2 * i, 2 * i + 2) as [string, string],
  );
  const last = new Map(sent.map(([name, value]) => [name.toLowerCase(), value]));
  const forwardedFor = last.get('x-forwarded-for');
  // API Gateway sets these itself, replacing whatever the client sent.
  const added: [string, string][] = [
    ['X-Amzn-Trace-Id', amznTraceId(context.receivedAt)],
    ['X-Forwarded-For', forwardedFor ? `${forwardedFor}, ${request.sourceIp}` : request.sourceIp],
    ['X-Forwarded-Port', String(request.localPort)],
    ['X-Forwarded-Proto', 'http'],
  ];
  const replaced = new Set(added.map(([name]) => name.toLowerCase()));
  const pairs = [...sent.filter(([name]) => !replaced.has(name.toLowerCase())), ...added];
  const { single: headers, multi: multiValueHeaders } = group(pairs);
  const query = [...url.searchParams.entries()];
  const { single: queryStringParameters, multi: multiValueQueryStringParameters } = group(query);
  const host = last.get('host') ?? `127.0.0.1:${request.localPort}`;

  return {
    resource: context.resource,
    path,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: query.length > 0 ? queryStringParameters : null,
    multiValueQueryStringParameters: query.length > 0 ? multiValueQueryStringParameters : null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: undefined,
      domainName: host,
      domainPrefix: host.split('.')[0] ?? host,
      extendedRequestId: context.requestId,
      httpMethod: request.method,
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
        sourceIp: request.sourceIp,
        user: null,
        userAgent: last.get('user-agent') ?? null,
        userArn: null,
      },
      path: `/${context.stage}${path}`,
      protocol: `HTTP/${request.httpVersion}`,
      requestId: context.requestId,
      requestTime: requestTime(context.receivedAt),
      requestTimeEpoch: context.receivedAt.getTime(),
      resourceId: 'local',
      resourcePath: context.resource,
      stage: context.stage,
    },
    body: request.body.length > 0 ? request.body.toString('base64') : null,
    isBase64Encoded: request.body.length > 0,
  };
}

/**
 * Every value in `multi`, the last in `single`. Header names are case-insensitive: repeats
 * spelled differently are one header, kept under the spelling first seen.
 */
function group(pairs: readonly [string, string][]) {
  const spelling = new Map<string, string>();
  const multi: Record<string, string[]> = {};
  for (const [name, value] of pairs) {
    const key = spelling.get(name.toLowerCase()) ?? name;
    spelling.set(name.toLowerCase(), key);
    multi[key] = [...(multi[key] ?? []), value];
  }
  const last = Object.entries(multi).map(([key, values]) => [key, values.at(-1) as string]);
  return { single: Object.fromEntries(last) as Record<string, string>, multi };
}

function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** `Root=1-<epoch seconds hex>-<96-bit random hex>`, the X-Ray trace header format. */
function amznTraceId(at: Date): string {
  const seconds = Math.floor(at.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
  return `Root=1-${seconds}-${randomBytes(12).toString('hex')}`;
}

/** `$context.requestTime`, e.g. `22/Nov/2026:03:04:05 +0000`, from `Sun, 22 Nov 2026 03:04:05 GMT`. */
function requestTime(at: Date): string {
  const [, day, month, year, time] = at.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
}
