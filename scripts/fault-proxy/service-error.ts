import type { ServerResponse } from 'node:http';

/**
 * The AWS services the fault proxy stands in front of, and how each writes an error (the JSON
 * protocols): the SDK reads the error type from `__type` and decides from it whether to retry,
 * exactly as it would against AWS.
 */
export const services = {
  dynamodb: {
    contentType: 'application/x-amz-json-1.0',
    typePrefix: 'com.amazonaws.dynamodb.v20120810#',
    serverError: 'InternalServerError',
  },
  secretsmanager: {
    contentType: 'application/x-amz-json-1.1',
    typePrefix: '',
    serverError: 'InternalServiceError',
  },
  eventbridge: {
    contentType: 'application/x-amz-json-1.1',
    typePrefix: '',
    serverError: 'InternalException',
  },
} as const;

export type Service = keyof typeof services;

export interface ServiceErrorReply {
  readonly statusCode: number;
  readonly type: string;
  readonly message: string;
}

export function sendServiceError(
  response: ServerResponse,
  service: Service,
  error: ServiceErrorReply,
): void {
  const { contentType, typePrefix } = services[service];
  const body = JSON.stringify({ __type: `${typePrefix}${error.type}`, message: error.message });
  response.writeHead(error.statusCode, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'x-amzn-requestid': `fault-proxy-${Date.now()}`,
  });
  response.end(body);
}

export const throttlingError: ServiceErrorReply = {
  statusCode: 400,
  type: 'ThrottlingException',
  message: 'Rate of requests exceeds the allowed throughput.',
};

export function internalServerError(service: Service): ServiceErrorReply {
  return { statusCode: 500, type: services[service].serverError, message: 'Internal error' };
}
