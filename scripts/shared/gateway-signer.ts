import { computeHash, escapeNonAscii } from '../../lambda/callback/callback-hash.js';
import { type SerializableValue, stringifyJson } from '../../lambda/json/json-text.js';

/**
 * The gateway's side of the hash, beside the verifier (as stripe-node ships its signer): the
 * simulator and the tests build valid and tampered callbacks with it instead of pasting hex.
 * Not used by the receiver at run time.
 */

/** A member value as the gateway would write it. */
export type GatewayValue = SerializableValue;

export interface SignOptions {
  /** `false`: send `"hash":""`, as a gateway with hashing switched off does. */
  readonly hash?: boolean;
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
  const unsigned = stringifyJson({ ...transaction, hash: '' });
  const hash = options.hash === false ? '' : computeHash(escapeNonAscii(unsigned, escapeCase), key);
  const body = stringifyJson({ ...transaction, hash });
  return options.wire === 'utf8' ? body : escapeNonAscii(body, escapeCase);
}

/** The gateway's compact JSON: exact numbers, members in the given order. */
export const serialize = stringifyJson;
