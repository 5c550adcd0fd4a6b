import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tableRows } from '../../../../scripts/cli/output/bounded-table.js';
import { type ListingView, openListing } from '../../../../scripts/cli/output/listing.js';

const numbers: ListingView<number> = {
  what: 'numbers',
  formats: ['table', 'json'],
  tableHead: ['n'],
  tableRows: (n) => [[String(n)]],
  json: (n) => n,
  csvHead: ['n'],
  csvRows: (n) => [[String(n)]],
};

/** What has been written to `out` so far, without ending it. */
function written(out: PassThrough): string {
  const chunks: Buffer[] = [];
  for (let chunk = out.read(); chunk !== null; chunk = out.read()) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('a listing in table form', () => {
  it('prints the table once its rows are all known, then only the end at finish', async () => {
    const out = new PassThrough();
    const listing = await openListing(numbers, { format: 'table' }, {}, out);

    for (let n = 0; n < tableRows - 1; n++) await listing.add(n);
    expect(written(out)).toBe('');
    await listing.add(tableRows - 1);
    const table = written(out);
    for (let n = tableRows; n < tableRows + 10; n++) await listing.add(n);
    expect(written(out)).toBe('');
    await listing.finish({ footer: (count) => `${count} numbers\n` });

    const lines = table.trimEnd().split('\n');
    expect(lines).toHaveLength(tableRows + 1);
    expect(lines[0]?.trim()).toBe('n');
    expect(lines.at(-1)?.trim()).toBe(String(tableRows - 1));
    expect(written(out)).toBe(
      `${tableRows + 10} numbers\n10 more numbers: use --format json or --output FILE\n`,
    );
  });

  it('prints a table shorter than its limit at finish, with the footer', async () => {
    const out = new PassThrough();
    const listing = await openListing(numbers, { format: 'table' }, {}, out);

    await listing.add(7);
    expect(written(out)).toBe('');
    await listing.finish({ footer: () => 'one\n' });

    expect(written(out)).toBe('n\n7\none\n');
  });
});
