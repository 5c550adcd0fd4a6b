import { JsonNumber } from '../../../lambda/json/json-number.js';
import { stringifyJson } from '../../../lambda/json/json-text.js';
import { signed, specKey } from '../../support/fixtures.js';
import { sha256Hex } from './independent-signer.js';
import { fields, type NamedCase } from './named-request.js';

/** Named cases of the hash: its spelling, its absence, and bodies a proxy rewrote after signing. */
export const hashCases: readonly NamedCase[] = [
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
];
