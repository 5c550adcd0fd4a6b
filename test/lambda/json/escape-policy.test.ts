import { describe, expect, it } from 'vitest';
import {
  type EscapePolicy,
  escapePolicies,
  spelledApart,
  writeWith,
} from '../../../lambda/json/escape-policy.js';
import { splitAtStrings } from '../../../lambda/json/json-string-units.js';

/** Every character whose spelling differs between serializers, once. */
const sample = [
  '/',
  '<',
  '>',
  '&',
  "'",
  '"',
  '\\',
  '+',
  '`',
  '\x7f',
  '\x1f',
  '\n',
  '\u2028',
  'ç',
  '💳',
];

/** What JSON itself requires escaped in a string, as the plainest policy spells it. */
const jsonRequired = { '"': '\\"', '\\': '\\\\', '\x1f': '\\u001f', '\n': '\\n' };

/**
 * How a policy spells each character of `sample`: as JSON requires, and as `changes` say
 * for the characters that policy spells otherwise; every other character as itself.
 */
function spelledAs(...changes: Record<string, string>[]): string[] {
  const changed: Record<string, string> = Object.assign({}, jsonRequired, ...changes);
  const unknown = Object.keys(changed).filter((char) => !sample.includes(char));
  if (unknown.length > 0) throw new Error(`not in the sample: ${JSON.stringify(unknown)}`);
  return sample.map((char) => changed[char] ?? char);
}

const slash = { '/': '\\/' };
const lineSeparator = { '\u2028': '\\u2028' };
const html = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' };
const nonAsciiLower = { ...lineSeparator, ç: '\\u00e7', '💳': '\\ud83d\\udcb3' };
const nonAsciiUpper = { ...lineSeparator, ç: '\\u00E7', '💳': '\\uD83D\\uDCB3' };
const upperControl = { '\x1f': '\\u001F' };
const htmlUpperQuotes = {
  '<': '\\u003C',
  '>': '\\u003E',
  '&': '\\u0026',
  "'": '\\u0027',
  '"': '\\u0022',
};

const spellings: [string, string[]][] = [
  ['only what JSON requires, lowercase hex', spelledAs()],
  ['only what JSON requires, uppercase hex', spelledAs(upperControl)],
  ['U+2028 U+2029', spelledAs(lineSeparator)],
  ['/', spelledAs(slash)],
  ['/ U+2028 U+2029', spelledAs(slash, lineSeparator)],
  ['< > &', spelledAs(html)],
  ['< > & U+2028 U+2029', spelledAs(html, lineSeparator)],
  ['non-ASCII, lowercase hex', spelledAs(nonAsciiLower)],
  ['non-ASCII, uppercase hex', spelledAs(nonAsciiUpper, upperControl)],
  ['non-ASCII DEL, lowercase hex', spelledAs(nonAsciiLower, { '\x7f': '\\u007f' })],
  ['non-ASCII /, lowercase hex', spelledAs(nonAsciiLower, slash)],
  [
    'non-ASCII / < > & \' ", lowercase hex but \\u003C \\u003E',
    spelledAs(nonAsciiLower, slash, htmlUpperQuotes),
  ],
  [
    'non-ASCII DEL < > & \' " + `, uppercase hex',
    spelledAs(nonAsciiUpper, upperControl, htmlUpperQuotes, {
      '+': '\\u002B',
      '`': '\\u0060',
      '\x7f': '\\u007F',
    }),
  ],
];

describe('escapePolicies', () => {
  it.each(spellings)(
    'writes every character of a string by one rule for the whole text: %s',
    (name, spelled) => {
      const policy = escapePolicies.find((candidate) => candidate.name === name);
      expect(policy?.write(sample.join(''))).toBe(spelled.join(''));
    },
  );

  it('has exactly the policies pinned above, 13, in that order', () => {
    expect(escapePolicies.map((policy) => policy.name)).toEqual(spellings.map(([name]) => name));
    expect(escapePolicies).toHaveLength(13);
  });

  it('writes every ASCII character outside spelledApart the same way under every policy', () => {
    for (let code = 0; code < 0x80; code++) {
      if (spelledApart.includes(code)) continue;
      const char = String.fromCharCode(code);
      const written = new Set(escapePolicies.map((policy) => policy.write(char)));
      expect(written.size, `U+${code.toString(16).padStart(4, '0')}`).toBe(1);
    }
  });

  it('writes a lone surrogate as an escape under every policy, since it has no UTF-8 form', () => {
    for (const policy of escapePolicies) {
      expect(policy.write('a\ud800b\udc00')).toMatch(/^a\\u[dD]800b\\u[dD][cC]00$/);
    }
  });

  it('writes each policy text as JSON that decodes to the original string', () => {
    for (const policy of escapePolicies) {
      expect(JSON.parse(`"${policy.write(sample.join(''))}"`)).toBe(sample.join(''));
    }
  });
});

describe('splitAtStrings', () => {
  it('cuts a text around its strings and decodes each one, member names included', () => {
    const text = String.raw`{"a\/b": [1, "x\"y", "\\u0041", "\u0041"], "": true}`;
    expect(splitAtStrings(text)).toEqual([
      '{',
      'a/b',
      ': [1, ',
      'x"y',
      ', ',
      '\\u0041',
      ', ',
      'A',
      '], ',
      '',
      ': true}',
    ]);
  });

  it('rebuilds the text exactly when each string is written back as it was', () => {
    const text = '{ "name" : "pla\\"in", "list":["a", "b"], "n": -1.50e3 }';
    expect(writeWith(splitAtStrings(text), escapePolicies[0] as EscapePolicy)).toBe(text);
  });
});
