import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type AcceptedKey, findKey, type KeyProvider } from '../auth/accepted-keys.js';
import { KeysUnavailableError, UnauthorizedError } from '../callback/errors.js';
import type { CallbackContext } from './callback-context.js';
import { header } from './request-headers.js';
import { budgetOf } from './start-budget.js';

/**
 * Checks `x-api-key` before anything else runs, so an unauthenticated request costs no parsing
 * and no DynamoDB call. A key not among those held gets one early refresh (the provider limits
 * how often) before it is refused, so a rotation does not refuse the gateway's new key. Keys that
 * cannot be read are not a refusal of the key: they become a {@link KeysUnavailableError}, a 503
 * the sender retries.
 */
export function authenticate(
  keys: KeyProvider,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext> {
  return {
    before: async function authenticateApiKey(request) {
      const presented = header(request.event, 'x-api-key');
      if (!presented) throw new UnauthorizedError();
      const budget = budgetOf(request.context);
      let key: AcceptedKey | undefined;
      try {
        key = findKey(await keys.keys(budget), presented);
        if (!key && keys.refreshed) key = findKey(await keys.refreshed(budget), presented);
      } catch (error) {
        throw new KeysUnavailableError({ cause: error });
      }
      if (!key) throw new UnauthorizedError();
      request.context.apiKey = key;
    },
  };
}
