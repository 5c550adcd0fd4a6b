import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  type MachineFormat,
  type MachineOptions,
  type MachineShape,
  machineWriter,
} from '../../../../scripts/cli/output/machine-output.js';

interface Pair {
  readonly name: string;
  readonly value: string;
}
const shape: MachineShape<Pair> = {
  json: (pair) => pair,
  csvHead: ['name', 'value'],
  csvRows: (pair) => [[pair.name, pair.value]],
};

async function written(
  format: MachineFormat,
  items: readonly Pair[],
  options: MachineOptions = {},
): Promise<string> {
  const out = new PassThrough();
  const all = text(out);
  const writer = machineWriter(format, shape, out, options);
  for (const item of items) await writer.write(item);
  await writer.end({ count: items.length });
  out.end();
  return all;
}

const pairs = [
  { name: 'a', value: '1' },
  { name: 'b', value: 'x\u202ey' },
];

describe('machine formats, the same in every command', () => {
  it('json is one document: the items in order, then the summary', async () => {
    const json = await written('json', pairs);

    expect(JSON.parse(json)).toEqual({ items: pairs, summary: { count: 2 } });
    // One item a line inside the array: grep and head still work on it.
    expect(json.trimEnd().split('\n')).toHaveLength(4);
  });

  it('json with no items is still one document', async () => {
    expect(JSON.parse(await written('json', []))).toEqual({ items: [], summary: { count: 0 } });
  });

  it('jsonl is one object a line, and a summary line only when the command has one', async () => {
    const plain = await written('jsonl', pairs);
    const withSummary = await written('jsonl', pairs, { summaryLine: true });

    expect(
      plain
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(pairs);
    expect(
      withSummary
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([...pairs, { kind: 'summary', count: 2 }]);
  });

  it('json and jsonl write bidi and C1 controls as \\u escapes that parse back to the value', async () => {
    const jsonl = await written('jsonl', pairs);

    expect(jsonl).not.toMatch(/\u202e/u);
    expect(jsonl).toContain('x\\u202ey');
  });

  it.each(['=1+2', '+1', '-1', '@SUM(A1)', '\tcmd', '\rcmd'])(
    "csv puts a ' before %j, which a spreadsheet would run; --csv-raw does not",
    async (cell) => {
      const items = [{ name: 'n', value: cell }];

      const [safe] = <Record<string, string>[]>(
        parse(await written('csv', items), { columns: true, relax_quotes: true })
      );
      const [raw] = <Record<string, string>[]>(
        parse(await written('csv', items, { csvRaw: true }), { columns: true })
      );

      expect(safe?.value).toBe(`'${cell}`);
      expect(raw?.value).toBe(cell);
    },
  );

  it('csv leaves other cells alone and writes the header even with no rows', async () => {
    const csv = await written('csv', [{ name: 'a=b', value: '12' }]);

    expect(parse(csv, { columns: true })).toEqual([{ name: 'a=b', value: '12' }]);
    expect(await written('csv', [])).toBe('name,value\n');
  });
});
