import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { terminalText } from '../terminal-text.js';
import { neutralisedCell } from './csv-cell.js';
import { exactJson } from './exact-json.js';

export type MachineFormat = 'json' | 'jsonl' | 'csv';

/** How one command's items are written in the machine formats. */
export interface MachineShape<T> {
  /** The item as one JSON value (numbers kept as stored, see exactJson). */
  readonly json: (item: T) => unknown;
  /**
   * The same JSON text as `exactJson(json(item))`, in pieces written one at a time: for items
   * with large members (a 64 KB body), so no one string holds the whole item at once.
   */
  readonly jsonPieces?: (item: T) => Iterable<string>;
  readonly csvHead: readonly string[];
  /** An item's CSV rows: usually one; a reconcile mismatch gives one per differing field. */
  readonly csvRows: (item: T) => readonly (readonly string[])[];
}

/** Writes items as they come, waiting for the output to drain, so memory stays flat. */
export interface MachineWriter<T> {
  write(item: T): Promise<void>;
  /**
   * Ends the document. `summary` closes a JSON document (`"summary"`) and, in JSON Lines, is
   * the last line (`"kind":"summary"`) when `summaryLine` was asked for.
   */
  end(summary: Record<string, unknown>): Promise<void>;
}

export interface MachineOptions {
  /** CSV: cells exactly as stored, no `'` before a formula character (`--csv-raw`). */
  readonly csvRaw?: boolean;
  /** JSON Lines: end with a `{"kind":"summary",…}` line (reconcile, replay, redrive). */
  readonly summaryLine?: boolean;
}

/**
 * The one convention of every command: `json` is ONE document, `{"items":[…],"summary":{…}}`,
 * one item per line inside the array, written as read (the summary comes last: it is known only
 * at the end); `jsonl` is one item per line; `csv` has a header and one row per line.
 */
export function machineWriter<T>(
  format: MachineFormat,
  shape: MachineShape<T>,
  out: Writable,
  options: MachineOptions = {},
): MachineWriter<T> {
  if (format === 'csv') return csvWriter(shape, out, options);
  let count = 0;
  return {
    async write(item) {
      if (format === 'json') await write(out, count === 0 ? '{"items":[\n' : ',\n');
      if (shape.jsonPieces) for (const piece of shape.jsonPieces(item)) await write(out, piece);
      else await write(out, exactJson(shape.json(item)));
      if (format === 'jsonl') await write(out, '\n');
      count += 1;
    },
    async end(summary) {
      if (format === 'json') {
        const items = count === 0 ? '{"items":[' : '\n';
        await write(out, `${items}],"summary":${exactJson(summary)}}\n`);
      } else if (options.summaryLine) {
        await write(out, `${exactJson({ kind: 'summary', ...summary })}\n`);
      }
    },
  };
}

function csvWriter<T>(
  shape: MachineShape<T>,
  out: Writable,
  { csvRaw = false }: MachineOptions,
): MachineWriter<T> {
  // Escaped like every other view when going straight to a terminal; else as stored (or
  // neutralised against formulas, the default).
  const tty = (out as { isTTY?: boolean }).isTTY === true;
  const cell = (text: string) => {
    const safe = csvRaw ? text : neutralisedCell(text);
    return tty ? terminalText(safe) : safe;
  };
  const csv = stringify({ header: true, columns: [...shape.csvHead] });
  csv.pipe(out, { end: false });
  return {
    async write(item) {
      for (const row of shape.csvRows(item)) {
        if (!csv.write(row.map(cell))) await once(csv, 'drain');
      }
    },
    async end() {
      // A header even with no rows: a script can still read the columns.
      csv.end();
      await finished(csv);
    },
  };
}

export async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
