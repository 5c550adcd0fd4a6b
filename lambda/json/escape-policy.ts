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

function unicodeEscape(code: number, hexCase: 'lower' | 'upper'): string {
  const hex = code.toString(16).padStart(4, '0');
  return `\\u${hexCase === 'upper' ? hex.toUpperCase() : hex}`;
}

/** `[`-class text for one character, safe inside a RegExp character class. */
function classChar(char: string): string {
  return `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

/** A lone surrogate has no UTF-8 form: always escaped, so no policy can change a string's meaning. */
const loneSurrogate =
  '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

function escapePolicy(name: string, rules: EscapeRules): EscapePolicy {
  const spelled = new Map<string, string>(Object.entries(required));
  for (let code = 0; code < 0x20; code++) {
    const char = String.fromCharCode(code);
    if (!spelled.has(char)) spelled.set(char, unicodeEscape(code, rules.hex));
  }
  for (const char of rules.hexAscii ?? '') {
    spelled.set(char, unicodeEscape(char.charCodeAt(0), rules.hexAsciiCase ?? rules.hex));
  }
  if (rules.slash) spelled.set('/', '\\/');
  const asciiClass = [...spelled.keys()].map(classChar).join('');
  const wideClass = rules.nonAscii
    ? '\\u0080-\\uffff'
    : rules.lineSeparators
      ? '\\u2028\\u2029'
      : '';
  const pattern = new RegExp(
    `[${asciiClass}${wideClass}]${rules.nonAscii ? '' : `|${loneSurrogate}`}`,
    'g',
  );
  const spell = (char: string) => spelled.get(char) ?? unicodeEscape(char.charCodeAt(0), rules.hex);
  return { name, write: (value) => value.replace(pattern, spell) };
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

/** The text of `splitAtStrings` parts with every string written by `policy`. */
export function writeWith(parts: readonly string[], policy: EscapePolicy): string {
  let out = '';
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string;
    out += index % 2 === 0 ? part : `"${policy.write(part)}"`;
  }
  return out;
}
