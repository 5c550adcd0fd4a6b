import { JsonNumber } from '../json/json-number.js';
import { computeHash, escapeNonAscii } from './callback-hash.js';

/**
 * The gateway's side of the hash, beside the verifier (as stripe-node ships its signer): the
 * simulator and the tests build valid and tampered callbacks with it instead of pasting hex.
 * Not used by the receiver at run time.
 */

/** A member value as the gateway would write it; `bigint` and {@link JsonNumber} keep exact digits. */
export type GatewayValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | JsonNumber
  | readonly GatewayValue[]
  | { readonly [member: string]: GatewayValue };

export interface SignOptions {
  /** How non-ASCII reaches the wire: `\u` escapes like the hashed text, or raw UTF-8. */
  readonly wire?: 'escaped' | 'utf8';
  /** Hex case of the `\u` escapes the gateway's serializer writes. */
  readonly escapeCase?: 'lower' | 'upper';
}

/**
 * The compact JSON body the gateway sends for `transaction`, members in the given order, with
 * `hash` filled in: SHA-256 over the text with `"hash":""` and non-ASCII escaped, key appended.
 */
export function signedBody(
  transaction: { readonly [member: string]: GatewayValue },
  key: string,
  options: SignOptions = {},
): string {
  const escapeCase = options.escapeCase ?? 'lower';
  const unsigned = serialize({ ...transaction, hash: '' });
  const hash = computeHash(escapeNonAscii(unsigned, escapeCase), key);
  const body = serialize({ ...transaction, hash });
  return options.wire === 'utf8' ? body : escapeNonAscii(body, escapeCase);
}

/** Compact JSON that writes exact numbers as their digits (JSON.stringify cannot). */
export function serialize(value: GatewayValue): string {
  if (value instanceof JsonNumber) return value.source;
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value as { readonly [member: string]: GatewayValue });
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${serialize(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
