import type { Writable } from 'node:stream';
import { BoundedTable, moreLine } from './bounded-table.js';
import {
  type MachineOptions,
  type MachineShape,
  type MachineWriter,
  machineWriter,
  write,
} from './machine-output.js';
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

/** A listing being written: items one at a time, then the ending; `close` always. */
export interface OpenListing<T> {
  add(item: T): Promise<void>;
  /**
   * Ends every format (the table is printed now, unless it filled up and was printed then);
   * returns how many items there were.
   */
  finish(end?: ListingEnd): Promise<number>;
  /** Closes the `--output` file, finished or not (call it in a `finally`). */
  close(): Promise<void>;
}

/**
 * Opens the outputs `flags` ask for: machine formats are written item by item, waiting for the
 * output to drain; the table keeps its first rows, printed once they are all known (at the
 * limit, or at the end), and counts the rest.
 */
export async function openListing<T>(
  view: ListingView<T>,
  flags: OutputFlags,
  options: Pick<MachineOptions, 'summaryLine'> = {},
  out: Writable = process.stdout,
): Promise<OpenListing<T>> {
  const plan = outputPlan(flags, view.formats);
  const file = plan.file && (await openOutputFile(plan.file.path));
  const machine = { ...options, csvRaw: flags.csvRaw ?? false };
  const writers: MachineWriter<T>[] = [];
  if (plan.file && file) writers.push(machineWriter(plan.file.format, view, file, machine));
  if (plan.terminal !== 'table') writers.push(machineWriter(plan.terminal, view, out, machine));
  const table =
    plan.terminal === 'table'
      ? new BoundedTable(view.tableHead, view.tableRows, { alignRight: view.alignRight ?? [] })
      : undefined;
  let count = 0;
  // The table is printed as soon as its rows are all known (the limit reached), so a person
  // sees them while the rest is only counted; what is known at the end alone follows it.
  let tablePrinted = false;
  let closed: Promise<void> | undefined;
  return {
    async add(item) {
      count += 1;
      table?.add(item);
      if (table && !tablePrinted && table.count === table.limit) {
        tablePrinted = true;
        await write(out, table.render());
      }
      for (const writer of writers) await writer.write(item);
    },
    async finish(ending = {}) {
      for (const writer of writers) await writer.end({ count, ...ending.summary });
      if (table) {
        const written = plan.file ? `all ${count} written to ${plan.file.path}\n` : '';
        const formats = view.formats.filter((name) => name !== 'table').join('|');
        const more = written || moreLine(table.hidden, view.what, formats);
        out.write(`${tablePrinted ? '' : table.render()}${ending.footer?.(count) ?? ''}${more}`);
      }
      return count;
    },
    close() {
      closed ??= file ? closeOutputFile(file) : Promise.resolve();
      return closed;
    },
  };
}

/**
 * Writes a stream of items in the format asked for, as they are read (see openListing), with
 * progress on stderr when it takes a while. Returns how many there were.
 */
export async function writeListing<T>(
  items: AsyncIterable<T> | Iterable<T>,
  view: ListingView<T>,
  flags: OutputFlags,
  end: ListingEnd = {},
  out: Writable = process.stdout,
): Promise<number> {
  const listing = await openListing(view, flags, {}, out);
  try {
    for await (const item of withProgress(items, view.what)) await listing.add(item);
    return await listing.finish(end);
  } finally {
    await listing.close();
  }
}
