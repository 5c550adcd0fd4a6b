import { describe, expect, it } from 'vitest';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { JsonSyntaxError, maxDepth, parseStrictJson } from '../../../lambda/json/strict-json.js';

describe('parseStrictJson', () => {
  it('keeps numbers digit for digit, beyond what a double holds', () => {
    const { value } = parseStrictJson('{"id":9007199254740993,"amount":1050.75,"zero":-0}');
    expect(value).toEqual({
      id: new JsonNumber('9007199254740993'),
      amount: new JsonNumber('1050.75'),
      zero: new JsonNumber('-0'),
    });
  });

  it('decodes escapes, including surrogate pairs, like JSON.parse', () => {
    const text = '["\\u00c7a\\u011Fr\\u0131","\\ud83d\\ude00","\\n\\t\\/\\\\\\"",true,false,null]';
    expect(parseStrictJson(text).value).toEqual(JSON.parse(text));
  });

  it.each([
    ['a duplicate member name', '{"reference":"a","reference":"b"}', 'duplicate member name'],
    ['a duplicate written with an escape', '{"hash":"","h\\u0061sh":"x"}', 'duplicate member name'],
    ['a __proto__ member', '{"__proto__":{"admin":true}}', 'forbidden member name'],
    ['a constructor member', '{"a":{"constructor":{"prototype":1}}}', 'forbidden member name'],
    ['a number that overflows a double', '{"amount":1e400}', 'number out of range'],
    ['a lone surrogate escape', '{"firstName":"\\ud800"}', 'lone surrogate'],
    ['a leading zero', '{"id":01}', "expected ',' or '}'"],
    ['a trailing comma', '{"id":1,}', 'expected a member name'],
    ['a raw control character in a string', '{"a":"x\u0001"}', 'control character'],
    ['text after the value', '{} {}', 'unexpected text'],
    ['an empty body', '', 'unexpected end of input'],
    ['NaN', '{"a":NaN}', 'unexpected character'],
  ])('rejects %s', (_name, text, message) => {
    expect(() => parseStrictJson(text)).toThrow(JsonSyntaxError);
    expect(() => parseStrictJson(text)).toThrow(message);
  });

  it(`rejects nesting deeper than ${maxDepth} levels, however deep`, () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(() => parseStrictJson(deep(maxDepth))).not.toThrow();
    expect(() => parseStrictJson(deep(maxDepth + 1))).toThrow('nesting deeper');
    expect(() => parseStrictJson(deep(30_000))).toThrow('nesting deeper');
  });

  it('reports where each top-level value sits in the source text', () => {
    const text = '{ "id" : 7 , "hash":"abc", "nested": {"hash": "inner"} }';
    const { memberSpans } = parseStrictJson(text);
    const slice = (name: string) => {
      const span = memberSpans.get(name);
      return span && text.slice(span.start, span.end);
    };
    expect(slice('id')).toBe('7');
    expect(slice('hash')).toBe('"abc"');
    expect(slice('nested')).toBe('{"hash": "inner"}');
  });

  it('leaves Object.prototype untouched by hostile members', () => {
    expect(() => parseStrictJson('{"__proto__":{"polluted":true}}')).toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
