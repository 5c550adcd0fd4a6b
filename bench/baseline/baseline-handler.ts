import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type { BasePersistenceLayer } from '@aws-lambda-powertools/idempotency/persistence';
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { parser } from '@aws-lambda-powertools/parser/middleware';
import { APIGatewayProxyEventSchema } from '@aws-lambda-powertools/parser/schemas/api-gateway';
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { errorResponse } from './error-response.js';
import { transactionSchema } from './transaction-schema.js';
import type { TransactionWriter } from './transaction-writer.js';
import { requireApiKey, verifyHash } from './verify-callback.js';

export interface BaselineDependencies {
  readonly keys: readonly string[];
  readonly persistenceStore: BasePersistenceLayer;
  readonly transactions: TransactionWriter;
  readonly logger: Logger;
}

export type BaselineHandler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<APIGatewayProxyResult>;

/** The API Gateway event with its body parsed by `http-json-body-parser` and then by the schema. */
const callbackEventSchema = APIGatewayProxyEventSchema.extend({ body: transactionSchema });

/**
 * The middleware chain in the order the Powertools and middy guides put it: logger context, then
 * the key, body parsing, hash and schema, and Idempotency last so that only valid callbacks take
 * a lock. Idempotency saves an IN_PROGRESS record, the handler writes the transaction, and the
 * record is updated to COMPLETED with the response; a redelivery gets that stored response.
 */
export function baselineHandler(dependencies: BaselineDependencies): BaselineHandler {
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

  const handler = middy()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(errorResponse(logger))
    .use(requireApiKey(keys))
    .use(httpJsonBodyParser())
    .use(verifyHash())
    .use(parser({ schema: callbackEventSchema }))
    .use(makeHandlerIdempotent({ persistenceStore, config }))
    .handler(async (event: ReturnType<typeof callbackEventSchema.parse>) => {
      const transaction = event.body;
      await transactions.put({
        ...transaction,
        receivedAt: new Date().toISOString(),
        requestId: event.requestContext.requestId,
        sourceIp: event.requestContext.identity.sourceIp,
      });
      logger.info('callback recorded', { reference: transaction.reference });
      return { statusCode: 204, body: '' };
    });
  return handler as unknown as BaselineHandler;
}
