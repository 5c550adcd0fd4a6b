import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import * as z from 'zod/mini';
import {
  type FieldDeclarations,
  type FieldName,
  fieldNames,
  isNumberKind,
  type TransactionFields,
  transactionFields,
} from '../../../lambda/callback/transaction-fields.js';
import { valueSchema } from '../../../lambda/callback/transaction-schema.js';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { isJsonObject, type JsonValue, parseStrictJson } from '../../../lambda/json/strict-json.js';
import { UsageError } from '../../cli/cli-errors.js';

/**
 * The fields a report row is compared on: those declared `reconciled`, checked by the receiver's
 * own rules for them.
 */
export function reconciledFields(fields: FieldDeclarations = transactionFields): string[] {
  return fieldNames(fields, (field) => field.reconciled);
}

export type ReconciledField = {
  [K in FieldName]: TransactionFields[K] extends { reconciled: true } ? K : never;
}[FieldName];

/**
 * The reconciled fields by name, as text (`''` for an optional one left out). Typed by the real
 * declaration; a fixture's declaration adds its own names at run time.
 */
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

/** A row's rules: the reference and the reconciled fields, each by the receiver's rule. */
function rowSchema(fields: FieldDeclarations) {
  const shape: Record<string, z.ZodMiniType> = {
    reference: valueSchema(fields.reference ?? transactionFields.reference),
  };
  for (const name of reconciledFields(fields)) {
    const field = fields[name] as FieldDeclarations[string];
    shape[name] = field.required ? valueSchema(field) : z.optional(valueSchema(field));
  }
  return z.object(shape);
}

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
  fields: FieldDeclarations = transactionFields,
): AsyncGenerator<ReportRow> {
  const reader = { fields, schema: rowSchema(fields) };
  yield* format === 'csv' ? csvRows(input, reader) : jsonLinesRows(input, reader);
}

interface RowReader {
  readonly fields: FieldDeclarations;
  readonly schema: ReturnType<typeof rowSchema>;
}

async function* csvRows(input: Readable, reader: RowReader): AsyncGenerator<ReportRow> {
  const parser = input.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => checkedHeader(header, reader.fields),
      skip_empty_lines: true,
      info: true,
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      yield row(info.lines, withNumbers(record, reader.fields), reader.schema);
    }
  } catch (error) {
    if (error instanceof ReportInputError) throw error;
    const line = (error as { lines?: unknown }).lines;
    if (typeof line === 'number') throw new ReportInputError(line, (error as Error).message);
    throw error;
  }
}

function checkedHeader(header: string[], fields: FieldDeclarations): string[] {
  const names = header.map((name) => name.trim());
  const needed = reconciledFields(fields).filter((name) => fields[name]?.required);
  const absent = ['reference', ...needed].filter((name) => !names.includes(name));
  if (absent.length > 0) {
    throw new ReportInputError(1, `the header names no ${absent.join(', ')} column`);
  }
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw new ReportInputError(1, `the header names ${repeated} twice`);
  return names;
}

async function* jsonLinesRows(input: Readable, reader: RowReader): AsyncGenerator<ReportRow> {
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
    yield row(line, withNumbers(value, reader.fields), reader.schema);
  }
}

/**
 * CSV cells, and some exports' amounts, are text; a number field's rule expects a number's
 * source, as the receiver sees it. An empty cell is an absent value.
 */
function withNumbers(values: Record<string, unknown>, fields: FieldDeclarations) {
  const read: Record<string, unknown> = { ...values };
  for (const name of reconciledFields(fields)) {
    const value = values[name];
    if (!isNumberKind(fields[name] as FieldDeclarations[string]) || typeof value !== 'string') {
      continue;
    }
    const text = value.trim();
    read[name] = text === '' && !fields[name]?.required ? undefined : new JsonNumber(text);
  }
  return read;
}

function row(
  line: number,
  values: Record<string, unknown>,
  schema: RowReader['schema'],
): ReportRow {
  const result = z.safeParse(schema, values);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ReportInputError(line, problems.join('; '));
  }
  // An optional field the row leaves out compares as empty text, as an absent stored one does.
  const data = result.data as Record<string, string | undefined>;
  const compared = Object.keys(schema.def.shape).map((name) => [name, data[name] ?? '']);
  return {
    line,
    ...(Object.fromEntries(compared) as ReconciledValues),
    reference: String(data.reference),
  };
}
