import { describedCandidates, type HashedText } from '../../lambda/callback/callback-hash.js';
import { isJsonObject, parseStrictJson } from '../../lambda/json/strict-json.js';
import { UsageError } from '../cli/cli-errors.js';

/**
 * What `npm run verify` and the console's Hash check explain, apart from the key: the hash a body
 * carries and the texts the receiver would hash it on. Each candidate still needs the key
 * (`SHA-256(text + key)`), so the console can send these to the page and keep the key there.
 */
export interface HashExplanation {
  /** The body's `hash`; absent when the body carries none (missing or `""`). */
  readonly received?: string;
  readonly candidates: HashedText[];
}

/** The body's hash and its candidate texts; a body that is not a JSON object is a UsageError. */
export function explainHash(rawBody: string): HashExplanation {
  let document: ReturnType<typeof parseStrictJson>;
  try {
    document = parseStrictJson(rawBody);
  } catch (error) {
    throw new UsageError(`the body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isJsonObject(document.value)) throw new UsageError('the body is not a JSON object');
  const hash = document.value.hash;
  if (hash !== undefined && typeof hash !== 'string') {
    throw new UsageError('the body\'s "hash" is not a string');
  }
  const candidates = describedCandidates(rawBody, document.memberSpans.get('hash'));
  return { ...(hash ? { received: hash } : {}), candidates };
}

/** The verdict's words, the same in the terminal and in the console. */
export const hashVerdict = {
  verified: (form: string) => `Verified: the hash matches ${form}.`,
  noHash: 'The body carries no hash (absent or empty): nothing to verify.',
  notVerified: (hash: string) =>
    `Not verified: the hash ${hash} matches none of the texts the receiver rebuilds.`,
  /** Under `notVerified`, before the candidates and their digests. */
  likelyCauses: [
    'Likely causes: another key; a proxy that re-serialized the body; a body file that is not',
    'the exact bytes received. Digests of SHA-256(text + key) for each candidate text:',
  ],
} as const;
