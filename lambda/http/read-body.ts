import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  MalformedJsonError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../callback/errors.js';
import { header } from './request-headers.js';

/** The largest body accepted, in bytes after base64 decoding. */
export const maxBodyBytes = 64 * 1024;

/** `application/json`, `application/<x>+json`, with or without parameters, in any case. */
const jsonMediaType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as text, exactly as the sender wrote it: a JSON content type is required, base64
 * bodies are decoded, and bytes that are not UTF-8 are refused rather than replaced (a replaced
 * byte would change the hashed text and what is stored).
 */
export function readBody(event: APIGatewayProxyEvent): string {
  if (!jsonMediaType.test(header(event, 'content-type') ?? '')) {
    throw new UnsupportedMediaTypeError();
  }
  const body = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(body, 'base64') : undefined;
  const size = bytes ? bytes.length : Buffer.byteLength(body, 'utf8');
  if (size > maxBodyBytes) throw new PayloadTooLargeError(maxBodyBytes);
  if (!bytes) return body;
  try {
    return utf8.decode(bytes);
  } catch {
    throw new MalformedJsonError('The body is not valid UTF-8.');
  }
}
