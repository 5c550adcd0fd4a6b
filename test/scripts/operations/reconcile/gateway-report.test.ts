import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type ReportFormat,
  ReportInputError,
  type ReportRow,
  readReport,
} from '../../../../scripts/operations/reconcile/gateway-report.js';

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
});
