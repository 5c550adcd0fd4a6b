/**
 * JSON string contents written as UTF-16 code units into one reused array, then made into a
 * string once. The hash check rewrites a body up to 26 times per request (escape-policy.ts):
 * numbers in an array cost a fraction of concatenated strings, and of collecting them.
 */

const hexDigits = { lower: '0123456789abcdef', upper: '0123456789ABCDEF' };

export function unicodeEscape(code: number, hexCase: 'lower' | 'upper'): string {
  const digits = hexDigits[hexCase];
  return `\\u${digits[(code >> 12) & 15]}${digits[(code >> 8) & 15]}${digits[(code >> 4) & 15]}${digits[code & 15]}`;
}

export const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
export const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Code units of the hex digits in each case, for writing escapes as numbers. */
export const hexUnits = {
  lower: [...hexDigits.lower].map((digit) => digit.charCodeAt(0)),
  upper: [...hexDigits.upper].map((digit) => digit.charCodeAt(0)),
};

/** `\uXXXX` for one code unit, written into `out` at `at`; returns where it ended. */
export function writeEscape(
  out: Uint16Array,
  start: number,
  code: number,
  digits: number[],
): number {
  let at = start;
  out[at++] = 0x5c;
  out[at++] = 0x75;
  out[at++] = digits[(code >> 12) & 15] as number;
  out[at++] = digits[(code >> 8) & 15] as number;
  out[at++] = digits[(code >> 4) & 15] as number;
  out[at++] = digits[code & 15] as number;
  return at;
}

/** A JSON string grows at most 6-fold (every code unit as `\uXXXX`). */
export const maxGrowth = 6;
let scratch = new Uint16Array(4096);

/** The reused output array, grown to hold a text of `length` code units at its longest. */
export function scratchFor(length: number): Uint16Array {
  if (scratch.length < length * maxGrowth + 2) scratch = new Uint16Array(length * maxGrowth + 2);
  return scratch;
}

/** The first `length` code units of the output array as a string (UTF-16LE, as on every Lambda CPU). */
export function textOf(length: number): string {
  return Buffer.from(scratch.buffer, scratch.byteOffset, length * 2).toString('utf16le');
}

/**
 * A JSON text cut around its strings: even indexes hold the text between strings as it is, odd
 * indexes each string's decoded value. Cut once, written once per policy. Input must be valid JSON.
 */
export function splitAtStrings(text: string): string[] {
  const parts: string[] = [];
  let chunkStart = 0;
  let open = text.indexOf('"');
  while (open !== -1) {
    let close = open + 1;
    let escaped = false;
    for (;;) {
      const code = text.charCodeAt(close);
      if (Number.isNaN(code)) throw new SyntaxError('unterminated string');
      if (code === 0x22) break;
      if (code === 0x5c) {
        escaped = true;
        close++;
      }
      close++;
    }
    parts.push(text.slice(chunkStart, open));
    // JSON.parse decodes a string token exactly; most strings hold no escape and need no parse.
    parts.push(
      escaped ? (JSON.parse(text.slice(open, close + 1)) as string) : text.slice(open + 1, close),
    );
    chunkStart = close + 1;
    open = text.indexOf('"', chunkStart);
  }
  parts.push(text.slice(chunkStart));
  return parts;
}

/**
 * Writes every non-ASCII UTF-16 code unit of a JSON text as `\uXXXX` (characters beyond U+FFFF
 * become a surrogate pair, as the gateway's serializers do) and keeps every other character as it
 * is. Outside strings valid JSON is ASCII, so a plain pass over the text only touches strings.
 */
export function escapeNonAscii(text: string, hexCase: 'lower' | 'upper'): string {
  const out = scratchFor(text.length);
  const digits = hexUnits[hexCase];
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x7f) {
      out[at++] = code;
      continue;
    }
    at = writeEscape(out, at, code, digits);
  }
  return textOf(at);
}
