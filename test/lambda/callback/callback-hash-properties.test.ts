import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeHash,
  hashedTextCandidates,
  verifyHash,
} from '../../../lambda/callback/callback-hash.js';
import {
  type EscapePolicy,
  escapePolicies,
  writeWith,
} from '../../../lambda/json/escape-policy.js';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { splitAtStrings } from '../../../lambda/json/json-string-units.js';
import { type JsonValue, parseStrictJson } from '../../../lambda/json/strict-json.js';
import { specKey } from '../../support/fixtures.js';

/**
 * Properties of the candidate texts over bodies written with every spelling JSON allows, each
 * character escaped or not at random, in either hex case, with random whitespace. The writer
 * here is the test's own, independent of lambda/json.
 */

type Value = { readonly text: string } | string | readonly string[];
type Member = readonly [name: string, value: Value];

/** Characters whose spelling differs between serializers, and the letters of an escape. */
const alphabet = [...'a/<>&\'"\\+`u0A \x7f\x1f\n\b\u2028\u0085ç💳'];
const text = fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 8 });
const value: fc.Arbitrary<Value> = fc.oneof(
  text,
  fc.array(text, { maxLength: 3 }),
  fc.constantFrom('0', '-12', '1050.70', '2.5e3', '9007199254740993').map((digits) => ({
    text: digits,
  })),
);
const members = fc.uniqueArray(fc.tuple(text, value), {
  selector: ([name]) => name,
  minLength: 1,
  maxLength: 6,
});

/** A small deterministic generator, so one seed stands for every spelling choice of a text. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const short: Record<string, string> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/** A JSON string token for `value`, every character spelled one of the ways JSON allows. */
function spell(value: string, next: () => number): string {
  const pick = <T>(choices: readonly T[]): T => choices[Math.floor(next() * choices.length)] as T;
  let out = '"';
  for (const char of value) {
    const units = [...Array(char.length).keys()].map((index) => char.charCodeAt(index));
    const escaped = () =>
      units
        .map((unit) => {
          const hex = unit.toString(16).padStart(4, '0');
          return `\\u${[...hex].map((digit) => (next() < 0.5 ? digit : digit.toUpperCase())).join('')}`;
        })
        .join('');
    const code = char.charCodeAt(0);
    const plain =
      char === '"' || char === '\\'
        ? `\\${char}`
        : code < 0x20
          ? short[char] === undefined
            ? undefined
            : `\\${short[char]}`
          : char;
    const spellings = [plain, char === '/' ? '\\/' : undefined].filter(
      (spelling): spelling is string => spelling !== undefined,
    );
    out += next() < 0.5 || spellings.length === 0 ? escaped() : pick(spellings);
  }
  return `${out}"`;
}

/** The whole body: members in the given order, `hash` at `hashAt`, whitespace from `seed`. */
function write(body: readonly Member[], hash: string, hashAt: number, seed: number): string {
  const next = random(seed);
  const compact = next() < 0.5;
  const gap = () =>
    compact ? '' : ([' ', '', '\n  ', '\t', '\r\n'][Math.floor(next() * 5)] ?? '');
  const valueText = (item: Value): string =>
    typeof item === 'string'
      ? spell(item, next)
      : 'text' in item
        ? item.text
        : `[${gap()}${item.map((element) => spell(element, next)).join(`${gap()},${gap()}`)}${gap()}]`;
  const all: Member[] = [...body];
  all.splice(hashAt % (body.length + 1), 0, ['hash', hash]);
  const written = all.map(
    ([name, item]) => `${spell(name, next)}${gap()}:${gap()}${valueText(item)}`,
  );
  return `${gap()}{${gap()}${written.join(`${gap()},${gap()}`)}${gap()}}${gap()}`;
}

/** The parsed value as ordered entries, so that member order counts too. */
function ordered(value: JsonValue): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value !== null && typeof value === 'object' && !(value instanceof JsonNumber)) {
    return Object.entries(value).map(([name, member]) => [name, ordered(member)]);
  }
  return value;
}

function candidatesOf(body: string): string[] {
  return hashedTextCandidates(body, parseStrictJson(body).memberSpans.get('hash'));
}

function verifies(body: string, key = specKey): boolean {
  const document = parseStrictJson(body);
  const hash = (document.value as { hash: string }).hash;
  return verifyHash(hashedTextCandidates(body, document.memberSpans.get('hash')), key, hash);
}

/** One change of meaning: a character, a number, a member's name, or a member less. */
const change = fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...alphabet), fc.nat(3));

function changed(
  body: readonly Member[],
  [at, position, char, kind]: [number, number, string, number],
): Member[] | undefined {
  const index = at % body.length;
  const [name, item] = body[index] as Member;
  const replace = (member: Member) => body.map((each, i) => (i === index ? member : each));
  if (kind === 0) return body.length > 1 ? body.filter((_, i) => i !== index) : undefined;
  if (kind === 1) {
    const renamed = `${name}${char}`;
    return body.some(([other]) => other === renamed) ? undefined : replace([renamed, item]);
  }
  if (typeof item === 'string') {
    // Between characters, never inside a surrogate pair.
    const chars = [...item];
    chars.splice(position % (chars.length + 1), 0, char);
    return replace([name, chars.join('')]);
  }
  if ('text' in item) return replace([name, { text: item.text === '0' ? '1' : `${item.text}1` }]);
  return replace([name, [...item, char]]);
}

describe('the hash candidate texts (properties)', () => {
  it('every candidate means the same JSON as the body, member order included', () => {
    fc.assert(
      fc.property(members, fc.nat(), fc.integer(), (body, hashAt, seed) => {
        const wire = write(body, 'f'.repeat(64), hashAt, seed);
        const blanked = ordered(parseStrictJson(write(body, '', hashAt, seed)).value);
        for (const candidate of candidatesOf(wire)) {
          expect(ordered(parseStrictJson(candidate).value)).toEqual(blanked);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a body whose meaning changed never verifies, however either text is spelled', () => {
    fc.assert(
      fc.property(
        members,
        change,
        fc.option(fc.constantFrom(...escapePolicies)),
        fc.nat(),
        fc.integer(),
        fc.integer(),
        (body, edit, policy, hashAt, hashedSeed, wireSeed) => {
          const other = changed(body, edit);
          fc.pre(other !== undefined);
          // The sender hashed a text of the original (spelled at random, or compact under a listed
          // policy: the texts the receiver rebuilds); the body carries the change.
          const hashedText = write(body, '', hashAt, hashedSeed);
          const hash = computeHash(policy ? compactUnder(hashedText, policy) : hashedText, specKey);
          expect(verifies(write(other as Member[], hash, hashAt, wireSeed))).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a body verifies however it is spelled when the sender hashed it under any listed policy', () => {
    fc.assert(
      fc.property(
        members,
        fc.constantFrom(...escapePolicies),
        fc.nat(),
        fc.integer(),
        (body, policy, hashAt, wireSeed) => {
          // The sender's text: compact, every string written by the policy.
          const hashedText = compactUnder(write(body, '', hashAt, wireSeed + 1), policy);
          const wire = write(body, computeHash(hashedText, specKey), hashAt, wireSeed);
          expect(verifies(wire)).toBe(true);
          expect(verifies(wire, 'another-key')).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** The compact text a sender using `policy` writes for the JSON `text`. */
function compactUnder(text: string, policy: EscapePolicy): string {
  const parts = splitAtStrings(text);
  return writeWith(
    parts.map((part, index) => (index % 2 === 0 ? part.replace(/\s+/g, '') : part)),
    policy,
  );
}
