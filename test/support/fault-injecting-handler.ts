import { Readable } from 'node:stream';
import { NodeHttpHandler } from '@smithy/node-http-handler';

/** What happens to one DynamoDB request. */
export type Fault =
  | 'pass'
  /** Answered 400 ThrottlingException without reaching the engine. */
  | 'throttle'
  /** Answered 500 InternalServerError without reaching the engine. */
  | 'server-error'
  /** Forwarded (the write lands), then the reply is lost as if the connection dropped. */
  | 'land-then-drop';

interface HttpRequestLike {
  headers: Record<string, string>;
}

/**
 * An SDK request handler that forwards to the engine but injects the faults a real engine cannot
 * produce on demand. It sits below the SDK's retry logic, so retries, backoff and error parsing
 * are the SDK's own. `plan` sees the DynamoDB operation (e.g. `PutItem`) and its 1-based count.
 */
export function faultInjectingHandler(plan: (operation: string, count: number) => Fault) {
  const real = new NodeHttpHandler();
  const counts = new Map<string, number>();
  const seen: string[] = [];

  const handler = {
    metadata: { handlerProtocol: 'http/1.1' },
    destroy: () => real.destroy(),
    updateHttpClientConfig: () => {},
    httpHandlerConfigs: () => ({}),
    async handle(request: HttpRequestLike, options?: Parameters<NodeHttpHandler['handle']>[1]) {
      const operation = (request.headers['x-amz-target'] ?? '').split('.').pop() ?? 'unknown';
      const count = (counts.get(operation) ?? 0) + 1;
      counts.set(operation, count);
      seen.push(operation);
      const fault = plan(operation, count);
      if (fault === 'throttle')
        return errorResponse(
          400,
          'ThrottlingException',
          'Rate of requests exceeds the allowed throughput.',
        );
      if (fault === 'server-error')
        return errorResponse(500, 'InternalServerError', 'Internal server error');
      const response = await real.handle(
        request as Parameters<NodeHttpHandler['handle']>[0],
        options,
      );
      if (fault === 'land-then-drop') {
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      }
      return response;
    },
  };
  return { handler, seen };
}

function errorResponse(statusCode: number, type: string, message: string) {
  const body = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message });
  return {
    response: {
      statusCode,
      reason: type,
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': type },
      body: Readable.from([Buffer.from(body)]),
    },
  };
}
