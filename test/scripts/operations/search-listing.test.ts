import { describe, expect, it } from 'vitest';
import { searchedLine, searchView } from '../../../scripts/operations/search-listing.js';

describe('what a search says it looked for and found', () => {
  it('names each kind in the words the console and the terminal share', () => {
    expect(searchedLine({ kind: 'id', text: '1000017', found: 1, more: false })).toBe(
      'gateway id 1000017: 1 found',
    );
    expect(searchedLine({ kind: 'reference', text: 'T-10', found: 3, more: false })).toBe(
      'references starting with "T-10": 3 found',
    );
    expect(searchedLine({ kind: 'username', text: 'grace', found: 0, more: false })).toBe(
      'username "grace" in any letter case: 0 found',
    );
  });

  it('says when only the first matches are shown', () => {
    expect(searchedLine({ kind: 'reference', text: 'T-', found: 50, more: true })).toBe(
      'references starting with "T-": 50 found, the first 50 shown: more match',
    );
  });

  it('says a kind was not searched, and why, rather than that nothing was found', () => {
    expect(
      searchedLine({
        kind: 'id',
        text: '1000017',
        found: 0,
        more: false,
        unavailable: 'its index is still being built',
      }),
    ).toBe('gateway id 1000017: not searched, its index is still being built');
  });
});

describe('a search result row', () => {
  const row = {
    item: { reference: 'T-1', receivedAt: '2026-11-20T10:00:00.000Z', username: 'grace' },
    matched: ['reference', 'username'] as const,
  };

  it('ends with what it matched: named in the table, as kinds in JSON and CSV', () => {
    expect(searchView.tableHead.at(-1)).toBe('matched');
    expect(searchView.tableRows(row)[0]?.at(-1)).toBe('reference, username');
    expect(searchView.json(row)).toMatchObject({
      reference: 'T-1',
      matched: ['reference', 'username'],
    });
    expect(searchView.csvHead.at(-1)).toBe('matched');
    expect(searchView.csvRows(row)[0]?.at(-1)).toBe('reference username');
  });
});
