import type { ServerResponse } from 'node:http';

/**
 * An error reply as DynamoDB writes it (JSON 1.0 protocol): the SDK reads the error type from
 * `__type` and decides from it whether to retry, exactly as it would against AWS.
 */
export interface DynamoDbErrorReply {
  readonly statusCode: number;
  readonly type: string;
  readonly message: string;
}

export function sendDynamoDbError(response: ServerResponse, error: DynamoDbErrorReply): void {
  const { statusCode, type, message } = error;
  const body = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message });
  response.writeHead(statusCode, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
    'x-amzn-requestid': `fault-proxy-${Date.now()}`,
  });
  response.end(body);
}

export const throttlingError: DynamoDbErrorReply = {
  statusCode: 400,
  type: 'ThrottlingException',
  message: 'Rate of requests exceeds the allowed throughput.',
};

export const internalServerError: DynamoDbErrorReply = {
  statusCode: 500,
  type: 'InternalServerError',
  message: 'Internal server error',
};
