import { signed, specKey } from '../../support/fixtures.js';
import { fields, type NamedCase } from './named-request.js';

/**
 * Named cases of bytes: the hashed text must be the sender's own, so nothing is repaired; and
 * the size limit counts bytes after base64 decoding, not characters.
 */

const limit = 64 * 1024;

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

export const encodingCases: readonly NamedCase[] = [
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
];
