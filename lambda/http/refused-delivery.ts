import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { AcceptedKey } from '../auth/accepted-keys.js';
import type { CallbackError } from '../callback/errors.js';
import { JsonNumber } from '../json/json-number.js';
import { isJsonObject, parseStrictJson } from '../json/strict-json.js';
import { keptHeaders } from '../refusals/kept-headers.js';
import type { RefusalRecord } from '../refusals/refusal.js';
import { keptPartBytes, maxKeptIdentifierLength } from '../refusals/refusal-limits.js';
import { maxBodyBytes } from './read-body.js';

/** Statuses that refuse a delivery for its content: kept, so nothing authenticated is lost. */
const keptStatuses = new Set([400, 403, 413, 415, 422]);

/** True for a refusal that is kept (401 is never kept; 409 is kept as a conflict; 5xx retried). */
export function isKeptRefusal(error: CallbackError): boolean {
  return keptStatuses.has(error.status);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * What is kept of a refused delivery: the body's bytes as received (the first
 * {@link keptPartBytes} when it is over the size limit, with its full size and digest), the
 * headers less any credential and within their caps (kept-headers.ts), the refusal, and who sent
 * it when.
 */
export function refusedDelivery(
  event: APIGatewayProxyEvent,
  error: CallbackError,
  key: AcceptedKey,
  receivedAt: Date,
): RefusalRecord {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  const whole = bytes.length <= maxBodyBytes;
  const { headers, dropped } = keptHeaders(event.headers ?? {});
  return {
    digest: createHash('sha256').update(bytes).digest('hex'),
    body: whole ? bytes : bytes.subarray(0, keptPartBytes),
    bodyBytes: bytes.length,
    headers,
    headersDropped: dropped,
    status: error.status,
    problem: error.problem,
    ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
    ...(whole ? identifiers(bytes) : {}),
    receivedAt,
    keyId: key.id,
    requestId: event.requestContext.requestId,
    sourceIp: event.requestContext.identity.sourceIp,
  };
}

/**
 * The top-level `reference` and `id` as written, when the body is JSON that has them and they
 * are no longer than {@link maxKeptIdentifierLength}: a longer one names no transaction.
 */
function identifiers(bytes: Buffer): { reference?: string; id?: string } {
  try {
    const { value } = parseStrictJson(utf8.decode(bytes));
    if (!isJsonObject(value)) return {};
    const { reference, id } = value;
    const idText = id instanceof JsonNumber ? id.source : typeof id === 'string' ? id : undefined;
    const fits = (text: unknown): text is string =>
      typeof text === 'string' && text.length <= maxKeptIdentifierLength;
    return {
      ...(fits(reference) ? { reference } : {}),
      ...(fits(idText) ? { id: idText } : {}),
    };
  } catch {
    return {};
  }
}
