import { describe, expect, it } from 'vitest';
import { escapePolicies, splitAtStrings, writeWith } from '../../../lambda/json/escape-policy.js';

/** Every character whose spelling differs between serializers, once. */
const sample = '/<>&\'"\\+`\x7f\x1f\n\u2028ç💳';

describe('escapePolicies', () => {
  it.each([
    ['only what JSON requires, lowercase hex', String.raw`/<>&'\"\\+` + '`\x7f\\u001f\\n\u2028ç💳'],
    ['only what JSON requires, uppercase hex', String.raw`/<>&'\"\\+` + '`\x7f\\u001F\\n\u2028ç💳'],
    ['U+2028 U+2029', String.raw`/<>&'\"\\+` + '`\x7f\\u001f\\n\\u2028ç💳'],
    ['/', String.raw`\/<>&'\"\\+` + '`\x7f\\u001f\\n\u2028ç💳'],
    ['/ U+2028 U+2029', String.raw`\/<>&'\"\\+` + '`\x7f\\u001f\\n\\u2028ç💳'],
    ['< > &', String.raw`/\u003c\u003e\u0026'\"\\+` + '`\x7f\\u001f\\n\u2028ç💳'],
    ['< > & U+2028 U+2029', String.raw`/\u003c\u003e\u0026'\"\\+` + '`\x7f\\u001f\\n\\u2028ç💳'],
    [
      'non-ASCII, lowercase hex',
      String.raw`/<>&'\"\\+` + '`\x7f' + String.raw`\u001f\n\u2028\u00e7\ud83d\udcb3`,
    ],
    [
      'non-ASCII, uppercase hex',
      String.raw`/<>&'\"\\+` + '`\x7f' + String.raw`\u001F\n\u2028\u00E7\uD83D\uDCB3`,
    ],
    [
      'non-ASCII DEL, lowercase hex',
      String.raw`/<>&'\"\\+` + '`' + String.raw`\u007f\u001f\n\u2028\u00e7\ud83d\udcb3`,
    ],
    [
      'non-ASCII /, lowercase hex',
      String.raw`\/<>&'\"\\+` + '`\x7f' + String.raw`\u001f\n\u2028\u00e7\ud83d\udcb3`,
    ],
    [
      String.raw`non-ASCII / < > & ' ", lowercase hex but \u003C \u003E`,
      String.raw`\/\u003C\u003E\u0026\u0027\u0022\\+` +
        '`\x7f' +
        String.raw`\u001f\n\u2028\u00e7\ud83d\udcb3`,
    ],
    [
      'non-ASCII DEL < > & \' " + `, uppercase hex',
      String.raw`/\u003C\u003E\u0026\u0027\u0022\\\u002B\u0060\u007F\u001F\n\u2028\u00E7\uD83D\uDCB3`,
    ],
  ])('writes every character of a string by one rule for the whole text: %s', (name, written) => {
    const policy = escapePolicies.find((candidate) => candidate.name === name);
    expect(policy?.write(sample)).toBe(written);
  });

  it('has one entry above for each policy, under a name no other policy has', () => {
    const names = escapePolicies.map((policy) => policy.name);
    expect(new Set(names).size).toBe(13);
    expect(names).toHaveLength(13);
  });

  it('writes a lone surrogate as an escape under every policy, since it has no UTF-8 form', () => {
    for (const policy of escapePolicies) {
      expect(policy.write('a\ud800b\udc00')).toMatch(/^a\\u[dD]800b\\u[dD][cC]00$/);
    }
  });

  it('writes each policy text as JSON that decodes to the original string', () => {
    for (const policy of escapePolicies) {
      expect(JSON.parse(`"${policy.write(sample)}"`)).toBe(sample);
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
    const text = '{ "name" : "plain", "list":["a", "b"] }';
    expect(writeWith(splitAtStrings(text), { name: 'identity', write: (value) => value })).toBe(
      text,
    );
  });
});
