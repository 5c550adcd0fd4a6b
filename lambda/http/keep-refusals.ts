import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { CallbackError, StoreUnavailableError } from '../callback/errors.js';
import type { RefusalStore } from '../refusals/refusal.js';
import type { CallbackContext } from './callback-context.js';
import { isKeptRefusal, refusedDelivery } from './refused-delivery.js';
import { budgetOf } from './start-budget.js';

/**
 * Keeps an authenticated delivery refused for its content before the refusal is answered, so a
 * transaction the gateway gives up on still exists here. Its `onError` runs before the problem
 * response is built: if keeping fails, the refusal becomes a 503 and the gateway retries, so
 * nothing is lost. Past the minute's bound on new refusals the refusal is answered as it is,
 * not kept, and the outcome log counts it. Unauthenticated requests never reach the store (no
 * key, nothing kept); accepted callbacks never reach it either (no error).
 */
export function keepRefusals(
  store: RefusalStore,
  now: () => Date,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext> {
  return {
    onError: async function keepRefusedDelivery(request) {
      const { error, context } = request;
      if (!(error instanceof CallbackError) || !isKeptRefusal(error) || !context.apiKey) return;
      try {
        const refusal = refusedDelivery(request.event, error, context.apiKey, now());
        const outcome = await store.keep(refusal, budgetOf(context));
        if (outcome === 'not-kept') {
          const { keyId, sourceIp, digest } = refusal;
          context.refusalNotKept = { keyId, sourceIp, digest };
        }
      } catch (failure) {
        const unavailable =
          failure instanceof StoreUnavailableError
            ? failure
            : new StoreUnavailableError({ cause: failure });
        unavailable.reference = error.reference;
        request.error = unavailable;
      }
    },
  };
}
