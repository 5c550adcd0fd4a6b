/**
 * What the deployed REST API routes, and what API Gateway itself answers when a request does not
 * reach the function. The stack (infra/constructs/callback-api.ts) defines one method, POST on
 * `/callback`; for any other path or method, including GET, PUT, OPTIONS and HEAD on `/callback`,
 * a REST API answers 403 `{"message":"Missing Authentication Token"}` (its misleading but
 * documented reply for a route it does not have), never 404 or 405. Paths are matched exactly:
 * `/callback/` and `/Callback` are other paths.
 */
export const callbackResource = '/callback';

export type Route =
  | { readonly kind: 'callback' }
  | { readonly kind: 'gateway'; readonly response: GatewayResponse };

export interface GatewayResponse {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Bodies beyond this API Gateway refuses itself (REST API payload quota, 10 MB). */
export const maxPayloadBytes = 10 * 1024 * 1024;

export function route(method: string, path: string): Route {
  if (path === callbackResource && method === 'POST') return { kind: 'callback' };
  return { kind: 'gateway', response: missingAuthenticationToken };
}

/** API Gateway's default gateway responses, as the deployed API sends them. */
const gatewayResponse = (
  statusCode: number,
  errorType: string,
  message: string,
): GatewayResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json', 'x-amzn-ErrorType': errorType },
  body: JSON.stringify({ message }),
});

export const missingAuthenticationToken = gatewayResponse(
  403,
  'MissingAuthenticationTokenException',
  'Missing Authentication Token',
);
export const requestTooLarge = gatewayResponse(413, 'RequestTooLargeException', 'Request Too Long');
/** The function threw or returned something that is not a proxy result. */
export const integrationFailure = gatewayResponse(
  502,
  'InternalServerErrorException',
  'Internal server error',
);
/** The function did not answer within the REST API's integration timeout. */
export const integrationTimeout = gatewayResponse(
  504,
  'InternalServerErrorException',
  'Endpoint request timed out',
);
/** The REST API's default integration timeout. */
export const integrationTimeoutMs = 29_000;
