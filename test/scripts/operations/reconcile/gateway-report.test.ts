import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type ReportFormat,
  ReportInputError,
  type ReportRow,
  readReport,
} from '../../../../scripts/operations/reconcile/gateway-report.js';
import { feeFields } from '../../../support/fee-fields.js';

/** Reading the gateway's report, CSV or JSON Lines: a byte order mark, and rows it refuses. */

const rows = (text: string, format: ReportFormat) => readReport(Readable.from([text]), format);

describe('a report that begins with a byte order mark', () => {
  it.each([
    ['csv', 'reference,amount,currency,type,status\nr-1,1.50,TRY,Deposit,Confirm\n'],
    [
      'jsonl',
      '{"reference":"r-1","amount":1.50,"currency":"TRY","type":"Deposit","status":"Confirm"}\n',
    ],
  ] as const)('reads %s as if the mark were not there', async (format, text) => {
    const read: ReportRow[] = [];
    for await (const row of rows(`\uFEFF${text}`, format)) read.push(row);

    expect(read.map((row) => [row.line, row.reference, row.amount])).toEqual([
      [format === 'csv' ? 2 : 1, 'r-1', '1.5'],
    ]);
  });
});

describe('a malformed report', () => {
  it('stops at the bad row, naming its line and the field', async () => {
    const text =
      'reference,amount,currency,type,status\nok-1,100,TRY,Deposit,Confirm\nbad-1,-5,TRY,Deposit,Confirm\n';
    const read = async () => {
      for await (const _row of rows(text, 'csv'));
    };
    await expect(read()).rejects.toThrow(ReportInputError);
    await expect(read()).rejects.toThrow(/^line 3: amount must be a non-negative decimal/);
  });

  it('names a CSV row with the wrong number of cells, and a JSON line that is not JSON', async () => {
    const short = 'reference,amount,currency,type,status\nok-1,100,TRY,Deposit\n';
    const drain = async (iterable: AsyncIterable<ReportRow>) => {
      for await (const _row of iterable);
    };
    await expect(drain(rows(short, 'csv'))).rejects.toThrow(/^line 2: /);
    await expect(drain(rows('{"reference":"a"}\n{oops\n', 'jsonl'))).rejects.toThrow(
      /^line 1: amount is required/,
    );
    await expect(
      drain(
        rows(
          '{"reference":"a","amount":1,"currency":"TRY","type":"Deposit","status":"Confirm"}\n{oops\n',
          'jsonl',
        ),
      ),
    ).rejects.toThrow(/^line 2: not JSON/);
  });

  it('refuses a header that lacks a compared column', async () => {
    const drain = async () => {
      for await (const _row of rows('reference,amount,type,status\nr,1,Deposit,Confirm\n', 'csv'));
    };
    await expect(drain()).rejects.toThrow(/^line 1: the header names no currency column/);
  });
  it('refuses a header that names a column twice', async () => {
    const drain = async () => {
      const header = 'reference,amount,currency,type,status,amount';
      for await (const _row of rows(`${header}\nr,1,TRY,Deposit,Confirm,2\n`, 'csv'));
    };
    await expect(drain()).rejects.toThrow(/^line 1: the header names amount twice$/);
  });

  it('refuses a JSON line that is not an object, and skips blank lines', async () => {
    const row = '{"reference":"a","amount":1,"currency":"TRY","type":"Deposit","status":"Confirm"}';
    const read: ReportRow[] = [];
    for await (const found of rows(`${row}\n\n   \n${row.replace('"a"', '"b"')}\n`, 'jsonl')) {
      read.push(found);
    }
    expect(read.map((found) => [found.line, found.reference])).toEqual([
      [1, 'a'],
      [4, 'b'],
    ]);

    const drain = async () => {
      for await (const _row of rows(`${row}\n[1,2]\n`, 'jsonl'));
    };
    await expect(drain()).rejects.toThrow(/^line 2: not a JSON object$/);
  });
});

describe('a report under a declaration with an optional compared field', () => {
  it('reads an empty cell or a left-out member as empty text, as an absent stored value compares', async () => {
    const csv =
      'reference,amount,currency,type,status,fee\nr-1,1,TRY,Deposit,Confirm,\nr-2,1,TRY,Deposit,Confirm,0.25\n';
    const jsonl =
      '{"reference":"r-3","amount":1,"currency":"TRY","type":"Deposit","status":"Confirm"}\n';
    const read: ReportRow[] = [];
    for await (const row of readReport(Readable.from([csv]), 'csv', feeFields)) read.push(row);
    for await (const row of readReport(Readable.from([jsonl]), 'jsonl', feeFields)) read.push(row);

    expect(
      read.map((row) => [row.reference, (row as unknown as Record<string, unknown>).fee]),
    ).toEqual([
      ['r-1', ''],
      ['r-2', '0.25'],
      ['r-3', ''],
    ]);
  });
});
