import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import * as z from 'zod/mini';
import { transactionShape } from '../../lambda/callback/transaction-schema.js';
import { JsonNumber } from '../../lambda/json/json-number.js';
import { isJsonObject, type JsonValue, parseStrictJson } from '../../lambda/json/strict-json.js';
import { UsageError } from '../shared/cli-errors.js';

/**
 * The fields reconcile compares between a report row and what was recorded, checked by the
 * receiver's own rules for them (the receiver's conflict check compares more: its fingerprint).
 */
export const reconciledFields = ['amount', 'currency', 'type', 'status'] as const;
export type ReconciledField = (typeof reconciledFields)[number];
export type ReconciledValues = Readonly<Record<ReconciledField, string>>;

/** One completed transaction of the gateway's report, and the line it came from. */
export interface ReportRow extends ReconciledValues {
  readonly line: number;
  readonly reference: string;
}

/** A row that cannot be compared: the command stops with exit code 2, naming the line. */
export class ReportInputError extends UsageError {
  override name = 'ReportInputError';
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

const rowSchema = z.object({
  reference: transactionShape.reference,
  amount: transactionShape.amount,
  currency: transactionShape.currency,
  type: transactionShape.type,
  status: transactionShape.status,
});

export type ReportFormat = 'csv' | 'jsonl';

/**
 * The report's rows one at a time, never the whole file: a million-row report costs the memory
 * of one row. CSV needs a header naming at least the compared fields and `reference`, in any
 * order; other columns (`id`, `username`, …) are ignored. JSON Lines holds one transaction object
 * per line, numbers kept as written (`1050.70` is not rounded through a double).
 */
export async function* readReport(
  input: Readable,
  format: ReportFormat,
): AsyncGenerator<ReportRow> {
  yield* format === 'csv' ? csvRows(input) : jsonLinesRows(input);
}

async function* csvRows(input: Readable): AsyncGenerator<ReportRow> {
  const parser = input.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => checkedHeader(header),
      skip_empty_lines: true,
      info: true,
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      yield row(info.lines, { ...record, amount: decimal(record.amount) });
    }
  } catch (error) {
    if (error instanceof ReportInputError) throw error;
    const line = (error as { lines?: unknown }).lines;
    if (typeof line === 'number') throw new ReportInputError(line, (error as Error).message);
    throw error;
  }
}

function checkedHeader(header: string[]): string[] {
  const names = header.map((name) => name.trim());
  const absent = ['reference', ...reconciledFields].filter((name) => !names.includes(name));
  if (absent.length > 0) {
    throw new ReportInputError(1, `the header names no ${absent.join(', ')} column`);
  }
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new ReportInputError(1, `the header names ${repeated} twice`);
  return names;
}

async function* jsonLinesRows(input: Readable): AsyncGenerator<ReportRow> {
  let line = 0;
  for await (const read of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line += 1;
    // Spreadsheet tools and Windows editors start a UTF-8 file with a byte order mark.
    const text = line === 1 ? read.replace(/^\uFEFF/, '') : read;
    if (text.trim() === '') continue;
    let value: JsonValue;
    try {
      value = parseStrictJson(text).value;
    } catch (error) {
      throw new ReportInputError(line, `not JSON (${(error as Error).message})`);
    }
    if (!isJsonObject(value)) throw new ReportInputError(line, 'not a JSON object');
    // Some exports write amounts as strings; the rules below still require a plain decimal.
    const amount = typeof value.amount === 'string' ? decimal(value.amount) : value.amount;
    yield row(line, { ...value, amount });
  }
}

/** CSV cells are text; the amount rule expects a number's source, as the receiver sees it. */
function decimal(text: string | undefined): JsonNumber | undefined {
  return text === undefined ? undefined : new JsonNumber(text.trim());
}

function row(line: number, fields: Record<string, unknown>): ReportRow {
  const result = z.safeParse(rowSchema, fields);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ReportInputError(line, problems.join('; '));
  }
  return { line, ...result.data };
}
