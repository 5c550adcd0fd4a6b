import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { decimal, text, transactionFields } from '../../../lambda/callback/transaction-fields.js';
import { contentDifferences, contentFields } from '../../../scripts/table/content-differences.js';

type Item = Record<string, AttributeValue>;

const stored: Item = {
  id: { N: '42' },
  username: { S: 'jdoe' },
  amount: { N: '1050.7' },
  currency: { S: 'EUR' },
  reference: { S: 'ref-1' },
  hash: { S: 'digest-under-the-old-key' },
  extra: { S: '{"channel":"web","fee":1e2}' },
};

describe('the differences between a stored and a received transaction', () => {
  it('names the compared fields and extra members that differ, never the hash', () => {
    const received: Item = {
      ...stored,
      amount: { N: '1050.71' },
      hash: { S: 'digest-under-a-rotated-key' },
      extra: { S: '{"channel":"app","fee":100}' },
    };

    expect(contentDifferences(stored, received)).toEqual([
      { field: 'amount', stored: '1050.7', received: '1050.71' },
      { field: 'extra.channel', stored: '"web"', received: '"app"' },
    ]);
  });

  it("compares what the declaration marks fingerprinted, a field added to it too, in the declaration's order", () => {
    const declaration = {
      ...transactionFields,
      fee: decimal({ required: false, since: 2, rule: 'what the gateway charged' }),
      note: text({ required: false, fingerprinted: false, since: 2, rule: 'a free note' }),
    };
    const before: Item = { ...stored, fee: { N: '12.5' }, note: { S: 'first' } };
    const after: Item = { ...before, fee: { N: '13' }, note: { S: 'second' } };

    expect(contentDifferences(before, after, declaration)).toEqual([
      { field: 'fee', stored: '12.5', received: '13' },
    ]);
    const rows = contentFields(before, after, declaration).map((row) => row.field);
    expect(rows.slice(0, 3)).toEqual(['id', 'username', 'firstName']);
    expect(rows).toContain('fee');
    expect(rows).not.toContain('note');
    expect(rows).not.toContain('hash');
    expect(rows.indexOf('fee')).toBeLessThan(rows.indexOf('extra.channel'));
  });
  it('reads an extra that is not a JSON object as no members, so each received member is a difference', () => {
    const damaged: Item = { ...stored, extra: { S: '["not","members"]' } };

    expect(contentDifferences(damaged, stored)).toEqual([
      { field: 'extra.channel', stored: null, received: '"web"' },
      { field: 'extra.fee', stored: null, received: '1e2' },
    ]);
  });
});
