import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { terminalText } from '../shared/terminal-text.js';
import { detailLines, textTable } from '../shared/text-table.js';
import {
  displayValue,
  exactJson,
  listFields,
  listRecord,
  orderAttributes,
  type StoredItem,
} from './stored-item.js';

/** The list view's columns: one line per transaction. */
const listColumns = [
  ['receivedAt', 'receivedAt'],
  ['reference', 'reference'],
  ['username', 'username'],
  ['type', 'type'],
  ['status', 'status'],
  ['amount', 'amount (minor)'],
  ['currency', 'cur'],
  ['id', 'id'],
] as const;
const listHead = listColumns.map(([, title]) => title);
const listRow = (item: StoredItem) => listColumns.map(([name]) => displayValue(item[name]));

/** The detail view of one item: `name  value` lines, the raw body last, as received. */
export function detailTable(item: StoredItem): string {
  return detailLines(
    Object.entries(orderAttributes(item)).map(([name, value]) => [name, displayValue(value)]),
  );
}

/**
 * Conflicting deliveries: when each came, how often, what it claimed (nested under
 * `transaction`), and the operator's decision on it, from the transaction's `settlements`.
 */
export function conflictsTable(
  conflicts: readonly StoredItem[],
  settlements: StoredItem = {},
): string {
  if (conflicts.length === 0) return '\nNo conflicting deliveries.\n';
  const rows = conflicts.map(({ receivedAt, deliveries, fingerprint, requestId, transaction }) => {
    const { type, status, amount, currency, message } = (transaction ?? {}) as StoredItem;
    const decision = (settlements[String(fingerprint)] ?? {}) as StoredItem;
    const cells = [receivedAt, deliveries ?? 1, type, status, amount, currency, message];
    return [...cells, requestId, decision.resolution ?? 'open'].map(displayValue);
  });
  const count = conflicts.length;
  const head = ['receivedAt', 'times', 'type', 'status', 'amount', 'cur', 'message', 'request'];
  return (
    `\n${count} conflicting deliver${count === 1 ? 'y' : 'ies'} kept for audit (refused with 409):\n` +
    textTable([...head, 'decision'], rows, { alignRight: [1] })
  );
}

export type ListFormat = 'table' | 'json' | 'jsonl' | 'csv';

/**
 * Writes a stream of transactions as it reads, waiting for the output to drain, so memory stays
 * flat whatever the count. Returns how many it wrote.
 */
export async function writeItems(
  items: AsyncIterable<StoredItem>,
  format: ListFormat,
  out: Writable,
): Promise<number> {
  let count = 0;
  if (format === 'csv') {
    // Cells exactly as stored; escaped like every other view only when going to a terminal.
    const cell = (out as { isTTY?: boolean }).isTTY ? terminalText : (text: string) => text;
    const rows = async function* () {
      for await (const item of items) {
        count++;
        yield listFields.map((name) => cell(displayValue(item[name])));
      }
    };
    // pipeline honours each stage's backpressure; `end: false` leaves stdout open.
    const csv = stringify({ header: true, columns: [...listFields] });
    await pipeline(Readable.from(rows()), csv, out, { end: false });
    return count;
  }
  // A table is measured and written in blocks of rows, its header only once.
  let block: string[][] = [];
  const flush = async () => {
    const text = textTable(listHead, block);
    await write(out, count === block.length ? text : text.slice(text.indexOf('\n') + 1));
    block = [];
  };
  for await (const item of items) {
    count++;
    if (format === 'jsonl') await write(out, `${exactJson(listRecord(item))}\n`);
    if (format === 'json') {
      const text = exactJson(listRecord(item), 2).replace(/\n/g, '\n  ');
      await write(out, `${count === 1 ? '[\n' : ',\n'}  ${text}`);
    }
    if (format === 'table' && block.push(listRow(item)) === tableBlock) await flush();
  }
  if (format === 'json') await write(out, count === 0 ? '[]\n' : '\n]\n');
  if (format === 'table' && block.length > 0) await flush();
  if (format === 'table' && count === 0) await write(out, '(no transactions)\n');
  return count;
}

const tableBlock = 500;

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
