import { describe, expect, it } from 'vitest';
import { itemJson, itemsJson } from '../../scripts/query/item-json.js';

describe('itemJson (query --format json)', () => {
  it('writes DynamoDB numbers as their exact digits, never through a JavaScript number', () => {
    const text = itemJson({
      reference: { S: 'r' },
      id: { N: '9007199254740993' },
      amount: { N: '12345678901234567890123456789012345678' },
    });

    expect(text).toContain('"id": 9007199254740993');
    expect(text).toContain('"amount": 12345678901234567890123456789012345678');
    expect(JSON.parse(text).reference).toBe('r');
  });

  it('puts the transaction fields first in the gateway order and nests maps and lists', () => {
    const text = itemJson({
      rawBody: { S: '{}' },
      status: { S: 'Confirm' },
      reference: { S: 'r' },
      transaction: {
        M: { amount: { N: '1.5' }, tags: { L: [{ S: 'a' }, { BOOL: true }, { NULL: true }] } },
      },
    });

    expect(Object.keys(JSON.parse(text))).toEqual([
      'reference',
      'status',
      'transaction',
      'rawBody',
    ]);
    expect(JSON.parse(text).transaction).toEqual({ amount: 1.5, tags: ['a', true, null] });
  });

  it('escapes control characters in strings (a conflict key holds U+001F)', () => {
    const text = itemJson({ reference: { S: 'ref\u001fconflict\u001fabc' } });

    expect(text).toContain('"ref\\u001fconflict\\u001fabc"');
  });

  it('writes a list of items as a JSON array, empty or not', () => {
    expect(itemsJson([])).toBe('[]');
    expect(JSON.parse(itemsJson([{ id: { N: '1' } }, { id: { N: '2' } }]))).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
  });
});
