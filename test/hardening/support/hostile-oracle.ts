import type { APIGatewayProxyEvent } from 'aws-lambda';
import { maxDepth } from '../../../lambda/json/strict-json.js';
import { callbackEvent } from '../../support/fixtures.js';
import type { BodyChoice } from './hostile-body.js';
import type { HostileCase } from './hostile-request.js';
import { mutate, padded, presentedKey, referenceText } from './hostile-wire.js';
import { escapeUnicode, Members, signature, writeJson } from './independent-signer.js';
import { parseProblem, schemaProblem } from './interface-rules.js';

/**
 * The test's prediction for a hostile request, worked out from docs/callback-interface.md without the
 * receiver's code: the exact status where the rules decide it, else the statuses allowed; and
 * for a signed body, what was signed, so a 204 can be checked against it. The request is
 * written out by hostile-wire.ts and judged by the rules of interface-rules.ts.
 */
export interface Expectation {
  /** The one right answer, when the rules decide it. */
  readonly status: number | undefined;
  /** Otherwise, the answers that are acceptable (204 only with the signed content). */
  readonly allowed: readonly number[];
  /** What the holder of the presented key signed: canonical content and hash. */
  readonly signed: { readonly hashedText: string; readonly hash: string } | undefined;
}

export interface PreparedRequest {
  readonly event: APIGatewayProxyEvent;
  /** The body as the receiver will see it after base64 decoding, or undefined if not UTF-8. */
  readonly text: string | undefined;
  readonly expectation: Expectation;
  readonly describe: string;
}

export interface KeyRing {
  /** Both accepted during a rotation. */
  readonly current: string;
  readonly rotated: string;
  /** Accepted nowhere. */
  readonly unknown: string;
}

export interface OracleOptions {
  readonly keys: KeyRing;
  readonly hashMode: 'required' | 'if-present';
  /** A reference no other case uses. */
  readonly nextReference: () => string;
  readonly requestId: string;
}

export const maxBodyBytes = 64 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function prepare(hostile: HostileCase, options: OracleOptions): PreparedRequest {
  const presented = presentedKey(hostile.key, options.keys);
  const accepted = [options.keys.current, options.keys.rotated];
  const authentic = presented !== undefined && accepted.includes(stripOws(presented));
  const matchedKey = authentic ? stripOws(presented as string) : options.keys.current;

  const built = buildBody(hostile.body, matchedKey, options);
  const bytes = built.bytes ?? Buffer.from(built.text as string, 'utf8');
  const bodyString = built.text ?? bytes.toString('latin1');
  const wireSize = hostile.base64 ? bytes.length : Buffer.byteLength(bodyString, 'utf8');
  const text = hostile.base64 ? decodeUtf8(bytes) : bodyString;

  let expectation: Expectation;
  if (!authentic) expectation = exactly(401);
  else if (!hostile.contentType.json) expectation = exactly(415);
  else if (wireSize > maxBodyBytes) expectation = exactly(413);
  else if (text === undefined) expectation = exactly(400);
  else expectation = built.expect(text);

  const headers: Record<string, string> = {
    'Content-Type': undefined as unknown as string,
    'x-api-key': undefined as unknown as string,
  };
  if (hostile.contentType.value !== undefined)
    headers[hostile.contentType.headerName] = hostile.contentType.value;
  if (presented !== undefined) headers[hostile.keyHeaderName] = presented;
  const event = callbackEvent(null, { headers, requestId: options.requestId });
  event.isBase64Encoded = hostile.base64;
  event.body = hostile.base64 ? bytes.toString('base64') : bodyString;

  return { event, text, expectation, describe: `${hostile.body.kind}, key ${hostile.key.kind}` };
}

function exactly(status: number): Expectation {
  return { status, allowed: [status], signed: undefined };
}

/** Optional whitespace around a field value is SP and HTAB (RFC 9110, section 5.6.3). */
function stripOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

interface BuiltBody {
  /** The body as text, or undefined when it is raw bytes. */
  readonly text: string | undefined;
  readonly bytes: Buffer | undefined;
  /** The expectation once the key, content type and size have passed. */
  readonly expect: (decoded: string) => Expectation;
}

function buildBody(body: BodyChoice, key: string, options: OracleOptions): BuiltBody {
  switch (body.kind) {
    case 'transaction':
      return transactionBody(body, key, options);
    case 'json':
      return { text: body.text, bytes: undefined, expect: (text) => anyJson(text, options) };
    case 'bytes':
      return {
        text: undefined,
        bytes: Buffer.from(body.bytes),
        expect: (text) => anyJson(text, options),
      };
    case 'text':
      return { text: body.text, bytes: undefined, expect: (text) => anyJson(text, options) };
    case 'junk':
      return {
        text: body.char.repeat(body.size),
        bytes: undefined,
        expect: (text) => anyJson(text, options),
      };
    case 'nested': {
      const text =
        body.open === '['
          ? `${'['.repeat(body.depth)}${']'.repeat(body.depth)}`
          : `${'{"a":'.repeat(body.depth)}0${'}'.repeat(body.depth)}`;
      const depth = body.open === '[' ? body.depth : body.depth + 1;
      return {
        text,
        bytes: undefined,
        expect: () => (depth > maxDepth ? exactly(400) : exactly(unsignedStatus(options, 422))),
      };
    }
  }
}

/**
 * Any JSON text that is not a signed transaction: never stored. With a required hash it is
 * refused 403 once it parses (no valid hash can be in it); text `JSON.parse` refuses is 400.
 */
function anyJson(text: string, options: OracleOptions): Expectation {
  if (text.charCodeAt(0) === 0xfeff) return exactly(400);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return exactly(400);
  }
  if (hasForbiddenName(parsed)) return exactly(400);
  // The receiver is stricter than JSON.parse (duplicates, lone surrogates, depth, overflow);
  // without a required hash, an unsigned text could even be a valid transaction.
  const allowed = options.hashMode === 'required' ? [400, 403] : [400, 403, 422, 204];
  return { status: undefined, allowed, signed: undefined };
}

/** Without a valid hash: refused 403 when one is required, else judged by the schema. */
function unsignedStatus(options: OracleOptions, otherwise: number): number {
  return options.hashMode === 'required' ? 403 : otherwise;
}

function hasForbiddenName(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasForbiddenName);
  return Object.keys(value).some(
    (name) =>
      name === '__proto__' ||
      name === 'constructor' ||
      hasForbiddenName((value as Record<string, unknown>)[name]),
  );
}

function transactionBody(
  body: Extract<BodyChoice, { kind: 'transaction' }>,
  presentedKey: string,
  options: OracleOptions,
): BuiltBody {
  const { signing } = body;
  const unsigned = new Members([
    ...body.members.entries,
    ['reference', referenceText(body.reference, options.nextReference())],
    ...body.extras.entries,
  ]);
  const signingKey =
    signing.by === 'presented'
      ? presentedKey
      : signing.by === 'other-accepted'
        ? presentedKey === options.keys.current
          ? options.keys.rotated
          : options.keys.current
        : options.keys.unknown;
  const signed = signature(unsigned, signingKey, signing.escapeCase);
  const hash = signing.hashCase === 'upper' ? signed.hash.toUpperCase() : signed.hash;
  const members =
    signing.by === 'none' ? unsigned : unsigned.with('hash', signing.by === 'empty' ? '' : hash);
  const written = writeJson(members);
  const wire = signing.wire === 'escaped' ? escapeUnicode(written, signing.escapeCase) : written;
  const mutated = mutate(wire, body.mutation, members, hash, signing);
  const text = body.padTo === undefined ? mutated : padded(mutated, body.padTo);

  // Only whitespace added outside strings: the rules decide the answer exactly.
  const keepsContent = body.mutation.kind === 'none' || body.mutation.kind === 'pretty';
  // What the holder of the presented key would have signed: a 204 must carry exactly this.
  const presentedSignature = signature(unsigned, presentedKey, signing.escapeCase);
  return {
    text,
    bytes: undefined,
    expect: () => {
      if (!keepsContent) {
        return { status: undefined, allowed: [204, 400, 403, 422], signed: presentedSignature };
      }
      const problem = parseProblem(members);
      if (problem) return exactly(400);
      const hashed = signing.by !== 'none' && signing.by !== 'empty';
      if (!hashed && options.hashMode === 'required') return exactly(403);
      if (hashed && signing.by !== 'presented') return exactly(403);
      if (schemaProblem(members)) return exactly(422);
      return { status: 204, allowed: [204], signed: presentedSignature };
    },
  };
}

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
