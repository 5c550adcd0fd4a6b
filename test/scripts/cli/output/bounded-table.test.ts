import { describe, expect, it } from 'vitest';
import { BoundedTable, moreLine } from '../../../../scripts/cli/output/bounded-table.js';

describe('a bounded table', () => {
  it('keeps the first rows of a million items and counts the rest', () => {
    const table = new BoundedTable<number>(['n'], (n) => [[String(n)]], { limit: 3 });

    for (let n = 0; n < 1_000_000; n++) table.add(n);

    expect(table.render()).toBe('n\n0\n1\n2\n');
    expect(table.count).toBe(1_000_000);
    expect(table.hidden).toBe(999_997);
    expect(moreLine(table.hidden, 'rows', 'json|csv')).toBe(
      '999997 more rows: use --format json|csv or --output FILE\n',
    );
  });

  it('says nothing more when everything is shown', () => {
    const table = new BoundedTable<number>(['n'], (n) => [[String(n)]], { limit: 3 });
    table.add(1);

    expect(table.hidden).toBe(0);
    expect(moreLine(table.hidden, 'rows', 'json')).toBe('');
  });
});
