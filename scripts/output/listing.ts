import type { Writable } from 'node:stream';
import { BoundedTable, moreLine } from './bounded-table.js';
import { type MachineShape, type MachineWriter, machineWriter } from './machine-output.js';
import {
  closeOutputFile,
  type OutputFlags,
  type OutputFormat,
  openOutputFile,
  outputPlan,
} from './output-options.js';
import { withProgress } from './progress.js';

/** How one command shows its items: the table for a person, the machine formats for scripts. */
export interface ListingView<T> extends MachineShape<T> {
  /** Plural noun for counts and progress: "transactions". */
  readonly what: string;
  readonly tableHead: readonly string[];
  readonly tableRows: (item: T) => readonly (readonly string[])[];
  readonly alignRight?: readonly number[];
  /** Formats this command offers, the first the default. */
  readonly formats: readonly [OutputFormat, ...OutputFormat[]];
}

export interface ListingEnd {
  /** The machine summary; `count` is added. */
  readonly summary?: Record<string, unknown>;
  /** Text under the table: counts, hints. Given the number of items. */
  readonly footer?: (count: number) => string;
}

/**
 * Writes a stream of items in the format asked for, as they are read: machine formats item by
 * item, the table bounded to its first rows with a count of the rest. Returns how many there
 * were. Progress shows on stderr when it takes a while.
 */
export async function writeListing<T>(
  items: AsyncIterable<T> | Iterable<T>,
  view: ListingView<T>,
  flags: OutputFlags,
  end: ListingEnd | ((count: number) => ListingEnd) = {},
  out: Writable = process.stdout,
): Promise<number> {
  const plan = outputPlan(flags, view.formats);
  const file = plan.file && (await openOutputFile(plan.file.path));
  const writers: MachineWriter<T>[] = [];
  if (plan.file && file) writers.push(machineWriter(plan.file.format, view, file, flags));
  if (plan.terminal !== 'table') writers.push(machineWriter(plan.terminal, view, out, flags));
  const table =
    plan.terminal === 'table'
      ? new BoundedTable(view.tableHead, view.tableRows, { alignRight: view.alignRight ?? [] })
      : undefined;
  let count = 0;
  try {
    for await (const item of withProgress(items, view.what)) {
      count += 1;
      table?.add(item);
      for (const writer of writers) await writer.write(item);
    }
    const ending = typeof end === 'function' ? end(count) : end;
    for (const writer of writers) await writer.end({ count, ...ending.summary });
    if (table) {
      const written = plan.file ? `all ${count} written to ${plan.file.path}\n` : '';
      const formats = view.formats.filter((name) => name !== 'table').join('|');
      const more = written || moreLine(table.hidden, view.what, formats);
      out.write(`${table.render()}${ending.footer?.(count) ?? ''}${more}`);
    }
  } finally {
    if (file) await closeOutputFile(file);
  }
  return count;
}
