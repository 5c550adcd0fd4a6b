import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { escapePolicies, rewrites } from '../json/escape-policy.js';
import { escapeNonAscii } from '../json/json-string-units.js';
import type { Span } from '../json/strict-json.js';

/**
 * The gateway's integrity hash (docs/callback-hash.md):
 * `hash = lowercase_hex(SHA-256(UTF-8(S + K)))`, where `S` is the sender's compact JSON text of
 * the transaction with `hash` set to `""`, non-ASCII written as `\uXXXX`, and `K` the API key.
 */

export { escapeNonAscii };

/** SHA-256 of `text + key`, as lowercase hex: what the gateway puts in `hash`. */
export function computeHash(hashedText: string, key: string): string {
  return createHash('sha256')
    .update(hashedText + key, 'utf8')
    .digest('hex');
}

/** Two texts (as received, compact), each as it is, non-ASCII escaped twice, and per policy: 32. */
export const maxHashedTexts = 2 * (3 + escapePolicies.length);

/** One text the sender may have hashed, and how it was rebuilt from the body (`npm run verify`). */
export interface HashedText {
  readonly text: string;
  readonly form: string;
}

/**
 * The texts the sender may have hashed, rebuilt from the raw body rather than re-serialized, so
 * the sender's member order, number formatting and escapes survive (docs/callback-hash.md). From
 * the raw body with the top-level `hash` value blanked in place, and from its compact form when
 * the body carries whitespace between tokens:
 * 1. the text itself;
 * 2. the text with non-ASCII `\u`-escaped in lowercase and in uppercase hex, the rest as received;
 * 3. the text with every string written by each of the fixed escape policies of real serializers.
 * Every candidate means the same JSON as the body; duplicates are dropped (the first form named
 * wins), so at most {@link maxHashedTexts}. Each still needs the key, so accepting several does
 * not weaken the check. `rawBody` must be JSON the strict parser accepted.
 */
export function describedCandidates(rawBody: string, hashSpan: Span | undefined): HashedText[] {
  const candidates = new Map<string, string>();
  buildCandidates(rawBody, hashSpan, (text, form) => {
    if (!candidates.has(text)) candidates.set(text, form());
  });
  return [...candidates].map(([text, form]) => ({ text, form }));
}

/** The candidate texts alone, what the receiver hashes: no names built on the request path. */
export function hashedTextCandidates(rawBody: string, hashSpan: Span | undefined): string[] {
  const candidates = new Set<string>();
  buildCandidates(rawBody, hashSpan, (text) => candidates.add(text));
  return [...candidates];
}

function buildCandidates(
  rawBody: string,
  hashSpan: Span | undefined,
  add: (text: string, form: () => string) => void,
): void {
  const blanked = hashSpan
    ? `${rawBody.slice(0, hashSpan.start)}""${rawBody.slice(hashSpan.end)}`
    : rawBody;
  const compact = compactJson(blanked);
  // The texts as they are first, so `npm run verify` names the plainest form that matched.
  add(blanked, () => 'the body as received, "hash" blanked');
  add(compact, () => 'compact (no white space between tokens)');
  for (const base of compact === blanked ? [blanked] : [blanked, compact]) {
    const where = base === blanked ? 'as received' : 'compact';
    if (hasNonAscii(base)) {
      add(escapeNonAscii(base, 'lower'), () => `${where}, non-ASCII as lowercase \\u escapes`);
      add(escapeNonAscii(base, 'upper'), () => `${where}, non-ASCII as uppercase \\u escapes`);
    }
    for (const { policy, text } of rewrites(base)) {
      add(text, () => `${where}, strings escaping ${policy.name}`);
    }
  }
}

const hexDigest = /^[0-9a-fA-F]{64}$/;

/**
 * True when `receivedHash` matches any candidate text salted with `key`. A hash that is not 64 hex
 * digits fails like a wrong one. Compares digests as bytes in constant time, so hex case does not
 * matter and timing says nothing about how much of the hash was right.
 */
export function verifyHash(
  candidates: readonly string[],
  key: string,
  receivedHash: string,
): boolean {
  if (!hexDigest.test(receivedHash)) return false;
  const received = Buffer.from(receivedHash, 'hex');
  let matched = false;
  // No early exit: every candidate is tried, whatever matched first.
  for (const text of candidates) {
    // One-shot: half the CPU of a Hash object for a usual callback, up to 32 times a request.
    const expected = hash('sha256', text + key, 'buffer');
    if (timingSafeEqual(expected, received)) matched = true;
  }
  return matched;
}

/** Removes whitespace between tokens, leaving string contents untouched. Input must be valid JSON. */
export function compactJson(text: string): string {
  let out = '';
  let inString = false;
  let chunkStart = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) {
      out += text.slice(chunkStart, i);
      chunkStart = i + 1;
    }
  }
  return chunkStart === 0 ? text : out + text.slice(chunkStart);
}

function hasNonAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return true;
  return false;
}
