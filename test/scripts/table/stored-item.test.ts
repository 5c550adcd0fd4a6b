import { describe, expect, it } from 'vitest';
import { exactJson } from '../../../scripts/cli/output/exact-json.js';
import { displayValue, orderAttributes, storedItem } from '../../../scripts/table/stored-item.js';

describe('stored items (query --format json)', () => {
  it('writes DynamoDB numbers as their exact digits, never through a JavaScript number', () => {
    const amount = '12345678901234567890123456789012345678';
    const item = storedItem({
      reference: { S: 'r' },
      id: { N: '9007199254740993' },
      amount: { N: amount },
    });
    const text = exactJson(item, 2);

    expect(text).toContain('"id": 9007199254740993');
    expect(text).toContain('"amount": 12345678901234567890123456789012345678');
    expect(JSON.parse(text).reference).toBe('r');
  });

  it('puts the transaction fields first in the gateway order and nests maps and lists', () => {
    const item = orderAttributes(
      storedItem({
        rawBody: { S: '{}' },
        status: { S: 'Confirm' },
        reference: { S: 'r' },
        transaction: {
          M: { amount: { N: '1.5' }, tags: { L: [{ S: 'a' }, { BOOL: true }, { NULL: true }] } },
        },
      }),
    );
    const parsed = JSON.parse(exactJson(item));

    expect(Object.keys(parsed)).toEqual(['reference', 'status', 'transaction', 'rawBody']);
    expect(parsed.transaction).toEqual({ amount: 1.5, tags: ['a', true, null] });
  });

  it('escapes control characters in strings (a conflict key holds U+001F)', () => {
    const text = exactJson(storedItem({ reference: { S: 'ref\u001fconflict\u001fabc' } }));

    expect(text).toContain('"ref\\u001fconflict\\u001fabc"');
  });

  it('shows a number as its stored digits and a string as it is', () => {
    const item = storedItem({ amount: { N: '1050.70' }, currency: { S: 'EUR' } });

    expect(displayValue(item.amount)).toBe('1050.70');
    expect(displayValue(item.currency)).toBe('EUR');
    expect(displayValue(undefined)).toBe('');
  });
});
