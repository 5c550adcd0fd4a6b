/**
 * How a JSON serializer writes the characters inside strings. JSON lets most characters be written
 * either as themselves or as an escape, and serializers differ (docs/callback-hash.md): PHP writes
 * `/` as `\/`, Go writes `<` as `\u003c`, Python writes DEL as `\u007f`. A policy is applied to a
 * whole text, never chosen per character, so a text has exactly one rewrite per policy.
 */
export interface EscapePolicy {
  /** What the rewritten text looks like, for people (`npm run verify`). */
  readonly name: string;
  /** Rewrites one decoded string's contents (without the quotes). */
  readonly write: (value: string) => string;
  /**
   * A key that is equal for two policies exactly when they write every string of a text holding
   * `present` the same way: lets {@link rewrites} skip a policy before writing a repeated text.
   */
  readonly key: (present: Presence) => string;
  /** Writes one decoded string's contents into `out` from `at`; returns where it ended. */
  readonly writeInto: (value: string, out: Uint16Array, at: number) => number;
}

/** What a text's strings hold that policies may write differently. */
export interface Presence {
  /** ASCII code units some policy escapes although JSON does not require it, or spells apart. */
  readonly ascii: readonly number[];
  readonly nonAscii: boolean;
  readonly lineSeparators: boolean;
  readonly loneSurrogates: boolean;
}

interface EscapeRules {
  /** Hex case of `\uXXXX` escapes: controls, DEL, line separators and non-ASCII. */
  readonly hex: 'lower' | 'upper';
  /** ASCII characters written as `\u00XX` although JSON does not require it. */
  readonly hexAscii?: string;
  /** Hex case of those, when the serializer spells them apart (PHP's `\u003C`). */
  readonly hexAsciiCase?: 'lower' | 'upper';
  /** `/` as `\/`. */
  readonly slash?: boolean;
  /** U+2028 and U+2029 as `\u2028` and `\u2029` (they end a line in JavaScript source). */
  readonly lineSeparators?: boolean;
  /** Every UTF-16 code unit above U+007F as `\uXXXX` (a surrogate pair beyond U+FFFF). */
  readonly nonAscii?: boolean;
}

import {
  hexUnits,
  isHighSurrogate,
  isLowSurrogate,
  scratchFor,
  splitAtStrings,
  textOf,
  unicodeEscape,
  writeEscape,
} from './json-string-units.js';

/** What JSON requires, written the short way every serializer here uses. */
const required: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

const units = (spelling: string) => [...spelling].map((char) => char.charCodeAt(0));
const requiredByCase: Partial<Record<EscapeRules['hex'], readonly (number[] | undefined)[]>> = {};

/**
 * The ASCII spellings JSON requires (controls as `\uXXXX` in `hex` case, the short escapes),
 * indexed by code unit. Built once per hex case and shared by the policies of that case (never
 * changed: a policy copies the table before adding its own): building the same 34 spellings
 * for each policy was measurable in a cold start.
 */
function requiredSpellings(hex: EscapeRules['hex']): readonly (number[] | undefined)[] {
  let table = requiredByCase[hex];
  if (table === undefined) {
    const built: (number[] | undefined)[] = Array.from({ length: 0x80 }, () => undefined);
    for (let code = 0; code < 0x20; code++) built[code] = units(unicodeEscape(code, hex));
    for (const [char, spelling] of Object.entries(required))
      built[char.charCodeAt(0)] = units(spelling);
    requiredByCase[hex] = table = built;
  }
  return table;
}

/**
 * The ASCII spellings of one policy, indexed by code unit: what JSON requires, then the policy's
 * own escapes.
 */
function asciiSpellings(rules: EscapeRules): readonly (number[] | undefined)[] {
  const ascii = [...requiredSpellings(rules.hex)];
  for (const char of rules.hexAscii ?? '') {
    const code = char.charCodeAt(0);
    ascii[code] = units(unicodeEscape(code, rules.hexAsciiCase ?? rules.hex));
  }
  if (rules.slash) ascii[0x2f] = units('\\/');
  return ascii;
}

/**
 * A policy writes one pass over a string's UTF-16 code units. It runs on the request path up to
 * 26 times a body: writing numbers into one reused array and making one string at the end costs a
 * fraction of concatenating strings (and of collecting them). Its table of ASCII spellings is
 * built the first time the policy writes or compares a text that needs it, not at cold start: a
 * usual callback is written under three of the thirteen policies, or none.
 */
function escapePolicy(name: string, rules: EscapeRules): EscapePolicy {
  let table: readonly (number[] | undefined)[] | undefined;
  const spellings = () => {
    table ??= asciiSpellings(rules);
    return table;
  };
  const { hex, nonAscii = false, lineSeparators = false } = rules;
  const digits = hexUnits[hex];

  const writeInto: EscapePolicy['writeInto'] = (value, out, start) => {
    const ascii = spellings();
    let at = start;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      let escaped = false;
      if (code < 0x80) {
        const spelling = ascii[code];
        if (spelling !== undefined) {
          for (const unit of spelling) out[at++] = unit;
          continue;
        }
      } else if (nonAscii) {
        escaped = true;
      } else if (code === 0x2028 || code === 0x2029) {
        escaped = lineSeparators;
      } else if (isHighSurrogate(code) && isLowSurrogate(value.charCodeAt(i + 1))) {
        out[at++] = code;
        out[at++] = value.charCodeAt(++i);
        continue;
      } else if (isHighSurrogate(code) || isLowSurrogate(code)) {
        // A lone surrogate has no UTF-8 form: escaped, so no policy changes a string's meaning.
        escaped = true;
      }
      if (!escaped) {
        out[at++] = code;
        continue;
      }
      at = writeEscape(out, at, code, digits);
    }
    return at;
  };
  const write = (value: string) => textOf(writeInto(value, scratchFor(value.length), 0));
  const key = (present: Presence): string => {
    const asciiKey = present.ascii
      .map((code) => String.fromCharCode(...(spellings()[code] ?? [code])))
      .join(' ');
    if (!present.nonAscii) return asciiKey;
    if (nonAscii) return `${asciiKey} escaped ${hex}`;
    const separators = present.lineSeparators && lineSeparators ? hex : 'raw';
    return `${asciiKey} raw, line separators ${separators}, lone ${present.loneSurrogates ? hex : ''}`;
  };
  return { name, write, key, writeInto };
}

/**
 * The policies of the serializers senders use, each named after what it escapes beyond JSON's
 * minimum (`"`, `\`, controls). Fixed and short on purpose: each is one more text to hash.
 */
export const escapePolicies: readonly EscapePolicy[] = [
  // Non-ASCII written as itself.
  // JSON.stringify, Python with ensure_ascii=False, Perl JSON::PP, Ruby, PHP with every UNESCAPED flag.
  escapePolicy('only what JSON requires, lowercase hex', { hex: 'lower' }),
  // Jackson; .NET with UnsafeRelaxedJsonEscaping: `\u001F`.
  escapePolicy('only what JSON requires, uppercase hex', { hex: 'upper' }),
  // Go with SetEscapeHTML(false); PHP with JSON_UNESCAPED_UNICODE and JSON_UNESCAPED_SLASHES.
  escapePolicy('U+2028 U+2029', { hex: 'lower', lineSeparators: true }),
  // Perl JSON::PP with escape_slash.
  escapePolicy('/', { hex: 'lower', slash: true }),
  // PHP with JSON_UNESCAPED_UNICODE; Ruby with script_safe.
  escapePolicy('/ U+2028 U+2029', { hex: 'lower', slash: true, lineSeparators: true }),
  // Express's res.json with the "json escape" setting.
  escapePolicy('< > &', { hex: 'lower', hexAscii: '<>&' }),
  // Go's encoding/json by default (HTML-safe); Rails.
  escapePolicy('< > & U+2028 U+2029', { hex: 'lower', hexAscii: '<>&', lineSeparators: true }),

  // Non-ASCII as \u escapes (a surrogate pair beyond U+FFFF).
  // The gateway's published form; Perl JSON::PP ascii; PHP with JSON_UNESCAPED_SLASHES.
  escapePolicy('non-ASCII, lowercase hex', { hex: 'lower', nonAscii: true }),
  // The same in uppercase; Jackson with ESCAPE_NON_ASCII.
  escapePolicy('non-ASCII, uppercase hex', { hex: 'upper', nonAscii: true }),
  // Python's json.dumps by default (ensure_ascii).
  escapePolicy('non-ASCII DEL, lowercase hex', { hex: 'lower', nonAscii: true, hexAscii: '\x7f' }),
  // PHP's json_encode by default; Perl JSON::PP with ascii and escape_slash.
  escapePolicy('non-ASCII /, lowercase hex', { hex: 'lower', nonAscii: true, slash: true }),
  // PHP with JSON_HEX_TAG, JSON_HEX_AMP, JSON_HEX_APOS and JSON_HEX_QUOT: `\u003C`, yet `\u00e7`.
  escapePolicy(`non-ASCII / < > & ' ", lowercase hex but \\u003C \\u003E`, {
    hex: 'lower',
    nonAscii: true,
    slash: true,
    hexAscii: `<>&'"`,
    hexAsciiCase: 'upper',
  }),
  // .NET System.Text.Json by default.
  escapePolicy('non-ASCII DEL < > & \' " + `, uppercase hex', {
    hex: 'upper',
    nonAscii: true,
    hexAscii: '<>&\'"+`\x7f',
  }),
];

/** The text of `splitAtStrings` parts with every string written by `policy`. */
export function writeWith(parts: readonly string[], policy: EscapePolicy): string {
  const out = scratchFor(parts.reduce((sum, part) => sum + part.length + 2, 0));
  let at = 0;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string;
    if (index % 2 === 0) {
      for (let i = 0; i < part.length; i++) out[at++] = part.charCodeAt(i);
      continue;
    }
    out[at++] = 0x22;
    at = policy.writeInto(part, out, at);
    out[at++] = 0x22;
  }
  return textOf(at);
}

/**
 * The ASCII code units a policy may write apart from another: the controls (their hex case), and
 * the characters `hexAscii` and `slash` may name. Every other ASCII character is written the same
 * by every policy (a test holds the list to that), so it never tells two rewrites apart.
 */
export const spelledApart: readonly number[] = [
  ...Array.from({ length: 0x20 }, (_, code) => code),
  ...[...'"/<>&\'+`\x7f'].map((char) => char.charCodeAt(0)),
];

/** One pass over the strings of `splitAtStrings` parts. */
function presenceIn(parts: readonly string[]): Presence {
  const found = new Uint8Array(0x80);
  let nonAscii = false;
  let lineSeparators = false;
  let loneSurrogates = false;
  for (let index = 1; index < parts.length; index += 2) {
    const value = parts[index] as string;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code < 0x80) {
        found[code] = 1;
        continue;
      }
      nonAscii = true;
      if (code === 0x2028 || code === 0x2029) lineSeparators = true;
      else if (isHighSurrogate(code) && isLowSurrogate(value.charCodeAt(i + 1))) i++;
      else if (isHighSurrogate(code) || isLowSurrogate(code)) loneSurrogates = true;
    }
  }
  const ascii = spelledApart.filter((code) => found[code] === 1);
  return { ascii, nonAscii, lineSeparators, loneSurrogates };
}

/**
 * The text rewritten under each policy, in the policies' order, leaving out a policy whose
 * rewrite would repeat an earlier one's (decided before writing it: most texts hold nothing
 * policies spell apart, so most policies are never written). Input must be valid JSON.
 */
export function rewrites(text: string): { policy: EscapePolicy; text: string }[] {
  if (writtenAlikeByAll(text)) return [{ policy: escapePolicies[0] as EscapePolicy, text }];
  const parts = splitAtStrings(text);
  const present = presenceIn(parts);
  const keys = new Set<string>();
  const written: { policy: EscapePolicy; text: string }[] = [];
  for (const policy of escapePolicies) {
    const key = policy.key(present);
    if (keys.has(key)) continue;
    keys.add(key);
    written.push({ policy, text: writeWith(parts, policy) });
  }
  return written;
}

/** Characters outside strings that a policy may still write apart inside one. */
const apartInText = new Set([..."/<>&'+`\x7f"].map((char) => char.charCodeAt(0)));

/**
 * True when every policy writes `text` exactly as it is, decided without cutting it: no escape
 * (strings are their own decoded values), nothing non-ASCII, none of the printable characters
 * policies spell apart. Controls cannot be raw inside a string, and outside one they are only
 * whitespace, which no policy touches. The usual ASCII-only callback takes this path.
 */
function writtenAlikeByAll(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5c || code >= 0x80 || apartInText.has(code)) return false;
  }
  return true;
}
