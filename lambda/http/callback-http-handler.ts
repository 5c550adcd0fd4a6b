import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type AcceptedKey, findKey, type KeyProvider } from '../auth/accepted-keys.js';
import { CallbackError, StoreUnavailableError, UnauthorizedError } from '../callback/errors.js';
import type { Delivery, Receipt } from '../callback/receive-callback.js';
import { problemResponse } from './problem-response.js';
import { readBody } from './read-body.js';
import { header } from './request-headers.js';

export interface CallbackHttpDependencies {
  readonly keys: KeyProvider;
  readonly receive: (delivery: Delivery) => Promise<Receipt>;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly now?: () => Date;
}

/** What the authentication step hands on to the handler. */
interface CallbackContext extends Context {
  apiKey: AcceptedKey;
  receipt?: Receipt;
}

/** The header on a 204 that tells `recorded` from `duplicate`. */
export const outcomeHeader = 'x-callback-outcome';

/**
 * The API Gateway (REST, payload 1.0) adapter around the use case: authenticate first, so an
 * unauthenticated request costs no parsing and no DynamoDB call; read the body; hand the delivery
 * to the use case; answer 204, or a problem response from the single error mapping.
 */
export type CallbackHandler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<APIGatewayProxyResult>;

export function callbackHttpHandler(dependencies: CallbackHttpDependencies): CallbackHandler {
  const { keys, receive, logger, metrics } = dependencies;
  const now = dependencies.now ?? (() => new Date());

  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(recordOutcome(logger, metrics))
    .use(authenticate(keys))
    .handler(async (event, context) => {
      context.receipt = await receive({
        rawBody: readBody(event),
        key: context.apiKey,
        requestId: event.requestContext.requestId,
        sourceIp: event.requestContext.identity.sourceIp,
        receivedAt: now(),
      });
      return {
        statusCode: 204,
        headers: { [outcomeHeader]: context.receipt.outcome.toLowerCase() },
        body: '',
      };
    });
  // Lambda passes a plain Context; `authenticate` adds the key before the handler reads it.
  return handler as unknown as CallbackHandler;
}

function authenticate(
  keys: KeyProvider,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext> {
  return {
    before: async function authenticateApiKey(request) {
      const presented = header(request.event, 'x-api-key');
      if (!presented) throw new UnauthorizedError();
      let accepted: readonly AcceptedKey[];
      try {
        accepted = await keys.keys();
      } catch (error) {
        // Keys could not be loaded (Secrets Manager down): the sender should retry, not give up.
        throw new StoreUnavailableError({ cause: error });
      }
      const key = findKey(accepted, presented);
      if (!key) throw new UnauthorizedError();
      request.context.apiKey = key;
    },
  };
}

/**
 * One log line and one metric per callback, whatever the outcome, and the error turned into its
 * response. Logs carry the request id, reference and outcome: never the key, body or names.
 */
function recordOutcome(
  logger: Logger,
  metrics: Metrics,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext> {
  return {
    after: function logAcceptedCallback(request) {
      const receipt = request.context.receipt;
      if (!receipt) return;
      metrics.addMetric(receipt.outcome, MetricUnit.Count, 1);
      logger.info('callback accepted', {
        requestId: request.event.requestContext?.requestId,
        reference: receipt.reference,
        outcome: receipt.outcome,
        hashResult: receipt.hashResult,
        status: request.response?.statusCode,
      });
    },
    onError: function logRefusedCallback(request) {
      const error = request.error;
      request.response = problemResponse(error);
      const status = request.response.statusCode;
      const requestId = request.event.requestContext?.requestId;
      if (error instanceof CallbackError) {
        metrics.addMetric(error.outcome, MetricUnit.Count, 1);
        const fields = { requestId, reference: error.reference, outcome: error.outcome, status };
        if (error instanceof StoreUnavailableError) {
          logger.error('callback not recorded', { ...fields, cause: describeCause(error.cause) });
        } else {
          logger.warn('callback refused', {
            ...fields,
            detail: error.fieldErrors ?? error.message,
          });
        }
      } else {
        logger.error('unexpected error', { requestId, status, cause: describeCause(error) });
      }
    },
  };
}

/** Name and status of a failure, not its message: SDK messages may quote the request. */
function describeCause(cause: unknown): Record<string, unknown> {
  if (!(cause instanceof Error)) return { name: typeof cause };
  const metadata = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return { name: cause.name, httpStatusCode: metadata?.httpStatusCode };
}
