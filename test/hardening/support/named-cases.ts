import { JsonNumber } from '../../../lambda/json/json-number.js';
import { type SerializableValue, stringifyJson } from '../../../lambda/json/json-text.js';
import { maxDepth } from '../../../lambda/json/strict-json.js';
import { signed, specKey, transaction } from '../../support/fixtures.js';
import { sha256Hex } from './independent-signer.js';

/**
 * Hand-made hostile requests, each with the status docs/callback-interface.md promises. They run on a real
 * engine with the default hash mode (`if-present`), through the real handler.
 */
export interface NamedRequest {
  /** Text, or raw bytes (sent base64, as API Gateway sends binary bodies). */
  readonly body: string | Buffer;
  /** Merged over `Content-Type: application/json` and the right `x-api-key`; undefined removes. */
  readonly headers?: Record<string, string | undefined>;
  readonly base64?: boolean;
}

export interface NamedCase {
  readonly name: string;
  readonly status: number;
  readonly request: (reference: string) => NamedRequest;
  /** For a 204: attribute values the stored item must hold, beyond the raw body. */
  readonly stored?: Record<string, string>;
  /** A known bug on the engines named: the case fails there until the receiver is fixed. */
  readonly knownBugOn?: readonly string[];
}

const limit = 64 * 1024;
const fields = (reference: string, overrides: Parameters<typeof transaction>[0] = {}) =>
  transaction({ reference, ...overrides });
/**
 * A case refused 400 whose one oddity is the member `text`, inserted into a signed body right
 * after the opening brace (`first`) or before the closing one (`last`).
 */
const memberCase = (name: string, place: 'first' | 'last', text: string): NamedCase => ({
  name,
  status: 400,
  request: (ref) => {
    const body = signed(fields(ref));
    return {
      body: place === 'first' ? body.replace('{', `{${text},`) : body.replace(/}$/, `,${text}}`),
    };
  },
});
/** A case whose one oddity is `written`, the JSON text of `member`; `stored`, how it is kept. */
const numberCase = (
  name: string,
  status: number,
  member: string,
  written: string,
  stored?: string,
): NamedCase => ({
  name,
  status,
  request: (ref) => ({ body: signed(fields(ref, { [member]: new JsonNumber(written) })) }),
  ...(stored === undefined ? {} : { stored: { [member]: stored } }),
});
/** `levels` arrays around nothing. */
function emptyNestedArrays(levels: number): SerializableValue {
  let value: SerializableValue = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

/** `levels` arrays around a 0. */
function nestedArrays(levels: number): SerializableValue {
  let value: SerializableValue = 0;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** A signed body with raw UTF-8 names, its message grown to exactly `size` bytes. */
function bodyOfSize(reference: string, size: number): Buffer {
  const base = Buffer.byteLength(signed(fields(reference), specKey, { wire: 'utf8' }), 'utf8');
  const missing = size - base;
  // Two-byte characters, so bytes and characters differ; one ASCII letter for an odd count.
  const message = `${'ş'.repeat(Math.floor(missing / 2))}${missing % 2 ? 'm' : ''}`;
  const body = Buffer.from(
    signed(fields(reference, { message }), specKey, { wire: 'utf8' }),
    'utf8',
  );
  if (body.length !== size) throw new Error(`built ${body.length} bytes, wanted ${size}`);
  return body;
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');

export const namedCases: readonly NamedCase[] = [
  // Parsing: what JSON.parse would silently resolve is refused.
  memberCase('a duplicate member name', 'last', '"amount":1'),
  memberCase('a duplicate member name spelled with an escape', 'last', '"am\\u006funt":1'),
  memberCase('a __proto__ member', 'first', '"__proto__":{"polluted":true}'),
  memberCase(
    'a __proto__ member spelled with an escape',
    'first',
    '"\\u005f_proto__":{"polluted":true}',
  ),
  memberCase(
    'a __proto__ member nested in an extra member',
    'first',
    '"meta":{"__proto__":{"polluted":true}}',
  ),
  memberCase('a constructor member', 'first', '"constructor":{"prototype":{"polluted":true}}'),
  numberCase('1e400 as the amount', 400, 'amount', '1e400'),
  numberCase('1e400 in an extra member', 400, 'fee', '1e400'),
  numberCase('-0 as the amount, stored as 0', 204, 'amount', '-0', '0'),
  numberCase('-0 as the id, stored as 0', 204, 'id', '-0', '0'),
  numberCase("Jackson's 1.0E7 as the amount, stored plainly", 204, 'amount', '1.0E7', '10000000'),
  numberCase(
    "Python's 1e+16 as the amount, stored plainly",
    204,
    'amount',
    '1e+16',
    '10000000000000000',
  ),
  numberCase('4.2e1 as the id, stored as 42', 204, 'id', '4.2e1', '42'),
  numberCase('1.5e0 as the id', 422, 'id', '1.5e0'),
  {
    name: '9007199254740993 as the id, stored digit for digit',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { id: 9007199254740993n })) }),
    stored: { id: '9007199254740993' },
  },
  numberCase(
    'an amount of 38 digits, stored digit for digit',
    204,
    'amount',
    `1${'0'.repeat(37)}`,
    `1${'0'.repeat(37)}`,
  ),
  numberCase('an amount of 39 digits', 422, 'amount', `1${'0'.repeat(38)}`),
  // The object is level 1, so maxDepth − 2 arrays and the number inside make maxDepth levels.
  {
    name: `nested arrays ${maxDepth} levels deep in all, the most allowed`,
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { deep: nestedArrays(maxDepth - 2) })) }),
  },
  {
    name: `nested arrays ${maxDepth + 1} levels deep in all`,
    status: 400,
    request: (ref) => ({ body: signed(fields(ref, { deep: nestedArrays(maxDepth - 1) })) }),
  },
  {
    name: `empty nested arrays ${maxDepth} levels deep in all, the most allowed`,
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { deep: emptyNestedArrays(maxDepth - 1) })) }),
  },
  {
    name: 'a body of 30,000 nested arrays',
    status: 400,
    request: () => ({ body: `${'['.repeat(30_000)}${']'.repeat(30_000)}` }),
  },
  {
    name: 'a body of 100,000 nested arrays',
    status: 413,
    request: () => ({ body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }),
  },
  // Bytes: the hashed text must be the sender's own, so nothing is repaired.
  {
    name: 'invalid UTF-8 (a 0xFF byte inside the body)',
    status: 400,
    request: (ref) => ({
      body: Buffer.concat([
        utf8(signed(fields(ref)).slice(0, 30)),
        Buffer.from([0xff]),
        utf8(signed(fields(ref)).slice(30)),
      ]),
    }),
  },
  {
    name: 'an overlong UTF-8 encoding',
    status: 400,
    request: () => ({ body: Buffer.from([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]) }),
  },
  {
    name: 'a UTF-8 encoded surrogate',
    status: 400,
    request: () => ({ body: Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]) }),
  },
  {
    name: 'a body cut inside a UTF-8 sequence',
    status: 400,
    request: (ref) => ({
      body: utf8(signed(fields(ref), specKey, { wire: 'utf8' })).subarray(0, 85),
    }),
  },
  {
    name: 'a UTF-8 byte order mark before a valid body',
    status: 400,
    request: (ref) => ({
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(signed(fields(ref)))]),
    }),
  },
  {
    name: 'U+FEFF before a valid text body',
    status: 400,
    request: (ref) => ({ body: `\ufeff${signed(fields(ref))}` }),
  },
  {
    name: 'a lone surrogate escape in a name',
    status: 400,
    request: (ref) => ({ body: signed(fields(ref, { firstName: '\ud800' })) }),
  },
  // Size: the limit counts bytes after base64 decoding, not characters.
  {
    name: 'a body of exactly 65,536 bytes of multi-byte text',
    status: 204,
    request: (ref) => ({ body: bodyOfSize(ref, limit) }),
  },
  {
    name: 'a body of 65,537 bytes of multi-byte text',
    status: 413,
    request: (ref) => ({ body: bodyOfSize(ref, limit + 1) }),
  },
  // Headers.
  {
    name: 'no Content-Type',
    status: 415,
    request: (ref) => ({ body: signed(fields(ref)), headers: { 'Content-Type': undefined } }),
  },
  {
    name: 'Content-Type text/plain',
    status: 415,
    request: (ref) => ({ body: signed(fields(ref)), headers: { 'Content-Type': 'text/plain' } }),
  },
  {
    name: 'Content-Type application/json; charset=utf-8',
    status: 204,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    }),
  },
  {
    name: 'Content-Type in upper case, header name in upper case',
    status: 204,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'Content-Type': undefined, 'CONTENT-TYPE': 'APPLICATION/JSON' },
    }),
  },
  {
    name: 'an x-api-key with surrounding spaces and tabs',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref)), headers: { 'x-api-key': ` \t${specKey}  ` } }),
  },
  {
    name: 'an x-api-key header name in upper case',
    status: 204,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'x-api-key': undefined, 'X-API-KEY': specKey },
    }),
  },
  {
    name: 'a key of the right length but the wrong value',
    status: 401,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'x-api-key': `${specKey.slice(0, -1)}${specKey.endsWith('0') ? '1' : '0'}` },
    }),
  },
  {
    name: 'the key followed by a NUL character',
    status: 401,
    request: (ref) => ({ body: signed(fields(ref)), headers: { 'x-api-key': `${specKey}\u0000` } }),
  },
  {
    name: 'the key in upper case',
    status: 401,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'x-api-key': specKey.toUpperCase() },
    }),
  },
  // The hash.
  {
    name: 'a hash in upper-case hex',
    status: 204,
    request: (ref) => ({
      body: signed(fields(ref)).replace(
        /"hash":"([0-9a-f]{64})"/,
        (_, hash: string) => `"hash":"${hash.toUpperCase()}"`,
      ),
    }),
    stored: { hashResult: 'verified' },
  },
  {
    name: 'a hash of 63 hex digits',
    status: 403,
    request: (ref) => ({ body: signed(fields(ref)).replace(/[0-9a-f]"}$/, '"}') }),
  },
  {
    name: 'a hash that is a number',
    status: 403,
    request: (ref) => ({ body: stringifyJson({ ...fields(ref), hash: 12345 }) }),
  },
  {
    name: 'no hash member at all',
    status: 204,
    request: (ref) => ({ body: stringifyJson(fields(ref)) }),
    stored: { hashResult: 'unverified' },
  },
  {
    name: 'a body a proxy pretty-printed after signing',
    status: 204,
    request: (ref) => ({ body: JSON.stringify(JSON.parse(signed(fields(ref))), null, 2) }),
    stored: { hashResult: 'verified' },
  },
  {
    name: 'a body a proxy re-serialized, escapes turned into raw UTF-8',
    status: 204,
    request: (ref) => ({ body: JSON.stringify(JSON.parse(signed(fields(ref)))) }),
    stored: { hashResult: 'verified' },
  },
  {
    name: 'a body a proxy re-serialized with its members reordered',
    status: 403,
    request: (ref) => {
      const parsed = JSON.parse(signed(fields(ref))) as Record<string, unknown>;
      return { body: JSON.stringify(Object.fromEntries(Object.entries(parsed).reverse())) };
    },
  },
  {
    name: 'a body a proxy re-serialized, 1050.70 written as 1050.7',
    status: 403,
    request: (ref) => ({
      body: JSON.stringify(JSON.parse(signed(fields(ref, { amount: new JsonNumber('1050.70') })))),
    }),
  },
  {
    name: 'a body hashed over raw UTF-8 instead of escapes (the raw text is a candidate)',
    status: 204,
    request: (ref) => {
      const unsigned = stringifyJson({ ...fields(ref), hash: '' });
      return { body: unsigned.replace('"hash":""', `"hash":"${sha256Hex(unsigned + specKey)}"`) };
    },
  },
  // What DynamoDB refuses and dynalite does not check. An empty or over-long username could not
  // key the byUser index (fixed: the index keys a copy, left out when it cannot be a key). An
  // empty name in a map was refused too (fixed: extra members are stored as JSON text).
  {
    name: 'an empty username (docs: a string)',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { username: '' })) }),
  },
  {
    name: 'a username of 2,049 bytes (docs: a string)',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { username: `${'ğ'.repeat(1024)}x` })) }),
  },
  {
    name: 'an extra member named "" (docs: accepted and stored)',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { '': 'x' })) }),
  },
  {
    name: 'an extra member holding an empty member name',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { meta: { '': 0 } })) }),
  },
  // Not a transaction at all.
  { name: 'an empty body', status: 400, request: () => ({ body: '' }) },
  { name: 'a body of whitespace', status: 400, request: () => ({ body: ' \n\t ' }) },
  { name: 'a JSON array', status: 422, request: () => ({ body: '[]' }) },
  { name: 'null', status: 422, request: () => ({ body: 'null' }) },
  { name: 'a JSON string', status: 422, request: () => ({ body: '"{}"' }) },
];
