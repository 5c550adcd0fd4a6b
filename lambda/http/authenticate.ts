import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type AcceptedKey, findKey, type KeyProvider } from '../auth/accepted-keys.js';
import { KeysUnavailableError, UnauthorizedError } from '../callback/errors.js';
import type { CallbackContext } from './callback-context.js';
import { header } from './request-headers.js';

/**
 * Checks `x-api-key` before anything else runs, so an unauthenticated request costs no parsing
 * and no DynamoDB call. A key provider that fails is not a refusal of the key: it becomes a
 * {@link KeysUnavailableError}, a 503 the sender retries.
 */
export function authenticate(
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
        throw new KeysUnavailableError({ cause: error });
      }
      const key = findKey(accepted, presented);
      if (!key) throw new UnauthorizedError();
      request.context.apiKey = key;
    },
  };
}
