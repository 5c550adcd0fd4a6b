import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { extname } from 'node:path';
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { UsageError } from '../cli-errors.js';
import type { MachineFormat } from './machine-output.js';

export type OutputFormat = 'table' | MachineFormat;

/** `--format`, `--output` and `--csv-raw`, the same in every command that lists. */
export function withOutputOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  const F extends OutputFormat,
>(command: Command<Args, Opts>, formats: readonly [F, ...F[]]) {
  return command
    .addOption(
      new Option(
        '--format <format>',
        'table: a bounded view for a terminal; json: one document; jsonl: one object a line',
      )
        .choices(formats)
        .default(formats[0]),
    )
    .option(
      '--output <file>',
      'every row into FILE, as --format or by its extension (.json, .jsonl, .csv); ' +
        'the terminal gets the table',
    )
    .option('--csv-raw', "CSV cells exactly as stored, without the ' before = + - @", false);
}

export interface OutputFlags {
  readonly format: OutputFormat;
  readonly output?: string;
  readonly csvRaw?: boolean;
}

/** What goes where: stdout gets the table or one machine format; `--output` a machine format. */
export interface OutputPlan {
  readonly terminal: OutputFormat;
  readonly file?: { readonly path: string; readonly format: MachineFormat };
}

const byExtension: Readonly<Record<string, MachineFormat>> = {
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.csv': 'csv',
};

/**
 * Without `--output`, stdout gets `--format`. With it, the file gets every row (in `--format`,
 * or by the file's extension when `--format` is the table) and stdout the bounded table.
 */
export function outputPlan(flags: OutputFlags, allowed: readonly OutputFormat[]): OutputPlan {
  if (flags.output === undefined) return { terminal: flags.format };
  const format =
    flags.format === 'table' ? byExtension[extname(flags.output).toLowerCase()] : flags.format;
  const machine = allowed.filter((name) => name !== 'table');
  if (format === undefined || !allowed.includes(format)) {
    throw new UsageError(
      `--output ${flags.output}: name its format with --format ${machine.join('|')} ` +
        `(or end the file name in ${machine.map((name) => `.${name}`).join(', ')})`,
    );
  }
  return { terminal: 'table', file: { path: flags.output, format } };
}

/** The file `--output` names, opened before anything is read: a bad path fails first. */
export async function openOutputFile(path: string): Promise<WriteStream> {
  const file = createWriteStream(path);
  try {
    await once(file, 'open');
  } catch (error) {
    throw new UsageError(`--output ${path}: ${(error as Error).message}`);
  }
  return file;
}

/** Ends the file and waits until every byte is handed to the system. */
export async function closeOutputFile(file: WriteStream): Promise<void> {
  file.end();
  await once(file, 'close');
}
