import { describe, expect, it } from 'vitest';
import {
  compactJson,
  computeHash,
  escapeNonAscii,
  hashedTextCandidates,
  maxHashedTexts,
  verifyHash,
} from '../../../lambda/callback/callback-hash.js';
import { parseStrictJson } from '../../../lambda/json/strict-json.js';
import { exampleA, exampleB, signed, specKey, transaction } from '../../support/fixtures.js';

/** Verifies a wire body the way the receiver does: candidates from the raw text. */
function verifies(body: string, key = specKey): boolean {
  const document = parseStrictJson(body);
  const hash = (document.value as Record<string, unknown>).hash as string;
  return verifyHash(hashedTextCandidates(body, document.memberSpans.get('hash')), key, hash);
}

describe('the gateway hash (docs/callback-hash.md)', () => {
  it('reproduces worked example A', () => {
    expect(computeHash(exampleA.hashedText, specKey)).toBe(exampleA.hash);
  });

  it('reproduces worked example B from its escaped hashed text', () => {
    const hashedText = escapeNonAscii(exampleB.utf8Body.replace(exampleB.hash, ''), 'lower');
    expect(computeHash(hashedText, specKey)).toBe(exampleB.hash);
  });

  it('accepts example B with names escaped on the wire', () => {
    expect(verifies(exampleB.escapedBody)).toBe(true);
  });

  it('accepts example B with names as raw UTF-8 on the wire', () => {
    expect(verifies(exampleB.utf8Body)).toBe(true);
  });

  it('accepts example A pretty-printed by a proxy', () => {
    const body = JSON.stringify(
      JSON.parse(exampleA.hashedText.replace('"hash":""', `"hash":"${exampleA.hash}"`)),
      null,
      2,
    );
    expect(verifies(body)).toBe(true);
  });

  it('accepts a sender that writes uppercase escapes, on either wire form', () => {
    const fields = transaction({ firstName: 'Ğülşen', lastName: 'Ünal 🙂' });
    expect(verifies(signed(fields, specKey, { escapeCase: 'upper' }))).toBe(true);
    expect(verifies(signed(fields, specKey, { escapeCase: 'upper', wire: 'utf8' }))).toBe(true);
  });

  it('keeps the sender member order and number formatting', () => {
    const body = signed({ reference: 'r-1', amount: 1050.7, id: 7, extraMember: [1.0, 'x'] });
    expect(verifies(body)).toBe(true);
  });

  it('accepts a hash written in uppercase hex', () => {
    const body = exampleB.utf8Body.replace(exampleB.hash, exampleB.hash.toUpperCase());
    expect(verifies(body)).toBe(true);
  });

  it('rejects a tampered amount', () => {
    expect(verifies(exampleB.utf8Body.replace('250075', '250076'))).toBe(false);
  });

  it('rejects a tampered name', () => {
    expect(verifies(exampleB.utf8Body.replace('Öztürk', 'Ozturk'))).toBe(false);
  });

  it('rejects the right body salted with another key', () => {
    expect(verifies(exampleB.utf8Body, 'another-key')).toBe(false);
  });

  it('rejects a body the proxy re-serialized with other member order', () => {
    const reordered = JSON.stringify(
      Object.fromEntries(Object.entries(JSON.parse(exampleA.hashedText)).reverse()),
    );
    const body = reordered.replace('"hash":""', `"hash":"${exampleA.hash}"`);
    expect(verifies(body)).toBe(false);
  });

  it.each([
    ['too short', 'abc123'],
    ['not hex', 'z'.repeat(64)],
    ['one digit too many', `${exampleB.hash}0`],
  ])('treats a malformed hash (%s) as a failed hash, not an error', (_name, hash) => {
    expect(verifies(exampleB.utf8Body.replace(exampleB.hash, hash))).toBe(false);
  });
});

describe('hashedTextCandidates', () => {
  const count = (body: string) =>
    hashedTextCandidates(body, parseStrictJson(body).memberSpans.get('hash')).length;

  it('builds one text for an ASCII body with nothing to escape, three once it holds non-ASCII', () => {
    expect(count(exampleA.hashedText)).toBe(1);
    expect(count(exampleB.utf8Body)).toBe(3);
    expect(count(exampleB.escapedBody)).toBe(3);
  });

  it('reaches its most, 32 distinct texts, only for a pretty-printed body holding every escape class', () => {
    // JSON source: an escaped 'a' and '/', a raw '/', the HTML set, DEL, a control, U+2028.
    const message = `${String.raw`\u0061/\/<>&'\"\\+`}\`${String.raw`\u001f\n`}\u2028ç💳\x7f`;
    const body = `{\n  "message": "${message}",\n  "hash": "${'0'.repeat(64)}"\n}`;
    const candidates = hashedTextCandidates(body, parseStrictJson(body).memberSpans.get('hash'));
    expect(candidates).toHaveLength(32);
    expect(maxHashedTexts).toBe(32);
  });
});

describe('compactJson', () => {
  it('drops whitespace between tokens and keeps it inside strings', () => {
    expect(compactJson('{ "a" : "x y\\" z" ,\n\t"b":[ 1 , 2 ] }')).toBe(
      '{"a":"x y\\" z","b":[1,2]}',
    );
  });
});

describe('escapeNonAscii', () => {
  it('writes UTF-16 code units, a surrogate pair beyond U+FFFF', () => {
    expect(escapeNonAscii('"Ç😀"', 'lower')).toBe('"\\u00c7\\ud83d\\ude00"');
    expect(escapeNonAscii('"Ç😀"', 'upper')).toBe('"\\u00C7\\uD83D\\uDE00"');
  });
});
