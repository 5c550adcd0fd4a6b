import { describe, expect, it } from 'vitest';
import { differingMembers } from '../../../lambda/callback/extra-members.js';
import { type JsonValue, parseStrictJson } from '../../../lambda/json/strict-json.js';

/** The extra members of a redelivery, as the strict parser reads them. */
const members = (text: string) => parseStrictJson(text).value as Record<string, JsonValue>;

describe('extra members that differ between the stored transaction and a redelivery', () => {
  it('names every member of the redelivery when none were stored', () => {
    expect(differingMembers(undefined, members('{"channel":"web","attempt":2}'))).toEqual([
      'attempt',
      'channel',
    ]);
  });

  it('names members present on one side only, sorted', () => {
    expect(differingMembers('{"old":1,"same":"x"}', members('{"same":"x","new":true}'))).toEqual([
      'new',
      'old',
    ]);
  });

  it('compares numbers, arrays and objects by value, not by spelling or member order', () => {
    const stored = '{"fee":1e2,"tags":[1.50,"a"],"meta":{"b":null,"a":false}}';
    const redelivery = members('{"fee":100,"tags":[1.5,"a"],"meta":{"a":false,"b":null}}');
    expect(differingMembers(stored, redelivery)).toEqual([]);
  });

  it('names a member whose value changed, however deep the change or large the number', () => {
    const stored = '{"tags":[1,2],"meta":{"a":{"deep":"x"}},"fee":1e300}';
    const redelivery = members('{"tags":[1,3],"meta":{"a":{"deep":"y"}},"fee":1e301}');
    expect(differingMembers(stored, redelivery)).toEqual(['fee', 'meta', 'tags']);
  });

  it('treats stored extra text that is not an object as no members', () => {
    expect(differingMembers('[1,2]', members('{"channel":"web"}'))).toEqual(['channel']);
  });
});
