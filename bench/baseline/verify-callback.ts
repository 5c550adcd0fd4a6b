import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { HttpError } from './http-error.js';

/**
 * The checks as a team would first write them from the gateway's guide: the key compared with
 * the configured list, the hash recomputed from `JSON.stringify` of the parsed body with `hash`
 * blanked and non-ASCII escaped in lowercase. One candidate text only.
 */
export function requireApiKey(keys: readonly string[]): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: function requireApiKeyBefore(request) {
      const presented = headerValue(request.event, 'x-api-key');
      if (!presented || !keys.includes(presented)) {
        throw new HttpError(401, 'Missing or unknown API key');
      }
    },
  };
}

/** Runs after `http-json-body-parser`, so `event.body` is the parsed object. */
export function verifyHash(): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: function verifyHashBefore(request) {
      const body = request.event.body as unknown as Record<string, unknown>;
      const key = headerValue(request.event, 'x-api-key') ?? '';
      if (typeof body !== 'object' || body === null || typeof body.hash !== 'string') return;
      if (body.hash === '') return;
      const text = escapeNonAscii(JSON.stringify({ ...body, hash: '' }));
      const expected = createHash('sha256')
        .update(text + key)
        .digest();
      const received = Buffer.from(body.hash, 'hex');
      if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
        throw new HttpError(403, 'Hash does not verify');
      }
    },
  };
}

function headerValue(event: APIGatewayProxyEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const found = Object.keys(headers).find((key) => key.toLowerCase() === name);
  return found === undefined ? undefined : headers[found];
}

function escapeNonAscii(text: string): string {
  return text.replace(
    /[\u0080-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
