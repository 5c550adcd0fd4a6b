import {
  compactJson,
  computeHash,
  escapeNonAscii,
  hashedTextCandidates,
  verifyHash,
} from '../../lambda/callback/callback-hash.js';
import { isJsonObject, parseStrictJson } from '../../lambda/json/strict-json.js';
import { InputError } from './input-error.js';

export interface CandidateDigest {
  /** How the text was rebuilt from the body, in words. */
  readonly form: string;
  readonly text: string;
  /** SHA-256 of the text followed by the key: what the gateway would have sent. */
  readonly digest: string;
  readonly matches: boolean;
}

export interface HashExplanation {
  /** The body's `hash`, or undefined when it carries none (absent or empty). */
  readonly received: string | undefined;
  readonly verified: boolean;
  readonly candidates: readonly CandidateDigest[];
}

/**
 * Explains a body's hash the way the receiver checks it: the same candidate texts, rebuilt by
 * `hashedTextCandidates`, the same verdict from `verifyHash`, plus each candidate's digest so an
 * integrator can see which text their gateway hashed, or that it hashed none of them.
 */
export function explainHash(rawBody: string, key: string): HashExplanation {
  let document: ReturnType<typeof parseStrictJson>;
  try {
    document = parseStrictJson(rawBody);
  } catch (error) {
    throw new InputError(`the body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isJsonObject(document.value)) throw new InputError('the body is not a JSON object');
  const hash = document.value.hash;
  if (hash !== undefined && typeof hash !== 'string') {
    throw new InputError('the body\'s "hash" is not a string');
  }
  const received = hash === '' ? undefined : hash;
  const candidates = hashedTextCandidates(rawBody, document.memberSpans.get('hash'));
  const blanked = candidates[0] ?? rawBody;
  return {
    received,
    verified: received !== undefined && verifyHash(candidates, key, received),
    candidates: candidates.map((text) => {
      const digest = computeHash(text, key);
      return {
        form: formOf(text, blanked),
        text,
        digest,
        matches: received !== undefined && digest === received.toLowerCase(),
      };
    }),
  };
}

/** Names a candidate by rebuilding each form the receiver tries and seeing which it is. */
function formOf(text: string, blanked: string): string {
  const compact = compactJson(blanked);
  const forms: [string, string][] = [
    [blanked, 'the body as received, "hash" blanked'],
    [compact, 'compact (no white space between tokens)'],
    [escapeNonAscii(blanked, 'lower'), 'as received, non-ASCII as lowercase \\u escapes'],
    [escapeNonAscii(blanked, 'upper'), 'as received, non-ASCII as uppercase \\u escapes'],
    [escapeNonAscii(compact, 'lower'), 'compact, non-ASCII as lowercase \\u escapes'],
    [escapeNonAscii(compact, 'upper'), 'compact, non-ASCII as uppercase \\u escapes'],
  ];
  return forms.find(([candidate]) => candidate === text)?.[1] ?? 'another rebuilt text';
}
