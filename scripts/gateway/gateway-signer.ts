import { computeHash, escapeNonAscii } from '../../lambda/callback/callback-hash.js';
import { type SerializableValue, stringifyJson } from '../../lambda/json/json-text.js';

export interface SignOptions {
  /** `false`: send `"hash":""`, as a gateway with hashing switched off does. */
  readonly hash?: boolean;
  /** How non-ASCII reaches the wire: `\u` escapes like the hashed text, or raw UTF-8. */
  readonly wire?: 'escaped' | 'utf8';
  /** Hex case of the `\u` escapes the gateway's serializer writes. */
  readonly escapeCase?: 'lower' | 'upper';
}

/**
 * The gateway's side of the hash (as stripe-node ships its signer beside the verifier), so the
 * simulator and the tests build valid and tampered callbacks instead of pasting hex: the compact
 * JSON body, members in the given order, with `hash` = SHA-256 over the text with `"hash":""`
 * and non-ASCII escaped, key appended.
 */
export function signedBody(
  transaction: { readonly [member: string]: SerializableValue },
  key: string,
  options: SignOptions = {},
): string {
  const escapeCase = options.escapeCase ?? 'lower';
  const unsigned = stringifyJson({ ...transaction, hash: '' });
  const hash = options.hash === false ? '' : computeHash(escapeNonAscii(unsigned, escapeCase), key);
  const body = stringifyJson({ ...transaction, hash });
  return options.wire === 'utf8' ? body : escapeNonAscii(body, escapeCase);
}
