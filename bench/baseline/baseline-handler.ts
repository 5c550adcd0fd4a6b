import { createHash, timingSafeEqual } from 'node:crypto';
import { IdempotencyConfig, IdempotencyValidationError } from '@aws-lambda-powertools/idempotency';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { ParseError } from '@aws-lambda-powertools/parser';
import { parser } from '@aws-lambda-powertools/parser/middleware';
import { APIGatewayProxyEventSchema } from '@aws-lambda-powertools/parser/schemas/api-gateway';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { z } from 'zod';

/** Where the transaction goes once Idempotency has let a delivery through. */
export type TransactionWriter = (item: Record<string, unknown>) => Promise<void>;

interface BaselineDependencies {
  readonly keys: readonly string[];
  readonly persistenceStore: BasePersistenceLayer;
  readonly transactions: TransactionWriter;
  readonly logger: Logger;
}

/**
 * The transaction as most teams would write it: numbers as JavaScript numbers (`JSON.parse` has
 * already rounded anything beyond 2^53), unknown members passed through for the hash.
 */
const transactionSchema = z.looseObject({
  id: z.number().int().nonnegative(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  amount: z.number().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  type: z.enum(['Deposit', 'Withdrawal']),
  status: z.enum(['Confirm', 'Reject']),
  message: z.string().optional(),
  reference: z.string().min(1).max(256),
  hash: z.string().optional(),
});
const callbackEventSchema = APIGatewayProxyEventSchema.extend({ body: transactionSchema });

/**
 * The middleware chain in the order the Powertools and middy guides put it: logger context, the
 * key, body parsing, hash and schema, and Idempotency last so only valid callbacks take a lock.
 * Idempotency saves an IN_PROGRESS record, the handler writes the transaction unconditionally,
 * and the record becomes COMPLETED with the response a redelivery gets back.
 */
export function baselineHandler(
  dependencies: BaselineDependencies,
): (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult> {
  const { keys, persistenceStore, transactions, logger } = dependencies;
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'body.reference',
    // Same reference with other content is refused (409) instead of answered from the record.
    payloadValidationJmesPath:
      'body.[id, username, firstName, lastName, amount, currency, type, status, message]',
    throwOnNoIdempotencyKey: true,
    // A callback is retried for days; a day-long window is what a team would pick.
    expiresAfterSeconds: 24 * 60 * 60,
  });
  return middy()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(errorResponse(logger))
    .use(requireApiKey(keys))
    .use(httpJsonBodyParser())
    .use(verifyHash())
    .use(parser({ schema: callbackEventSchema }))
    .use(makeHandlerIdempotent({ persistenceStore, config }))
    .handler(async (event: z.infer<typeof callbackEventSchema>) => {
      await transactions({
        ...event.body,
        receivedAt: new Date().toISOString(),
        requestId: event.requestContext.requestId,
        sourceIp: event.requestContext.identity.sourceIp,
      });
      logger.info('callback recorded', { reference: event.body.reference });
      return { statusCode: 204, body: '' };
    }) as unknown as ReturnType<typeof baselineHandler>;
}

/** A plain `PutCommand`: the Idempotency record is trusted to keep redeliveries out. */
export function dynamoDbTransactionWriter(
  client: DynamoDBClient,
  tableName: string,
): TransactionWriter {
  const documents = DynamoDBDocumentClient.from(client);
  return async (item) => {
    await documents.send(new PutCommand({ TableName: tableName, Item: item }));
  };
}

/** An error that knows its HTTP status, as `@middy/util`'s `createError` builds them. */
const httpError = (statusCode: number, message: string) =>
  Object.assign(new Error(message), { statusCode });

function requireApiKey(keys: readonly string[]): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: function requireApiKeyBefore(request) {
      const presented = headerValue(request.event, 'x-api-key');
      if (!presented || !keys.includes(presented)) {
        throw httpError(401, 'Missing or unknown API key');
      }
    },
  };
}

/**
 * The hash as a team would first write it from the gateway's guide: `JSON.stringify` of the
 * parsed body with `hash` blanked and non-ASCII escaped in lowercase, one candidate text only.
 * Runs after `http-json-body-parser`, so `event.body` is the parsed object.
 */
function verifyHash(): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: function verifyHashBefore(request) {
      const body = request.event.body as unknown as Record<string, unknown> | null;
      if (typeof body?.hash !== 'string' || body.hash === '') return;
      const text = JSON.stringify({ ...body, hash: '' }).replace(
        /[\u0080-\uffff]/g,
        (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      const key = headerValue(request.event, 'x-api-key') ?? '';
      const expected = createHash('sha256')
        .update(text + key)
        .digest();
      const received = Buffer.from(body.hash, 'hex');
      if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
        throw httpError(403, 'Hash does not verify');
      }
    },
  };
}

/** As `@middy/http-error-handler`: a Parser failure is a 422, a payload mismatch a 409. */
function errorResponse(logger: Logger): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: function errorResponseOnError(request) {
      const { error } = request;
      const status = (error as { statusCode?: unknown } | null)?.statusCode;
      const statusCode =
        error instanceof ParseError
          ? 422
          : error instanceof IdempotencyValidationError
            ? 409
            : typeof status === 'number' && status >= 400 && status < 600
              ? status
              : 500;
      logger.warn('callback refused', { statusCode, error: error?.name });
      request.response = {
        statusCode,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: statusCode === 500 ? 'Internal error' : error?.message }),
      };
    },
  };
}

function headerValue(event: APIGatewayProxyEvent, name: string): string | undefined {
  return Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
}
