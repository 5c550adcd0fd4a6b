import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { terminalText } from '../shared/terminal-text.js';
import { textTable } from '../shared/text-table.js';
import { listHead, listRow } from './item-table.js';
import { displayValue, exactJson, listFields, listRecord, type StoredItem } from './stored-item.js';

/**
 * Writers for a stream of transactions. Each writes as it reads and waits for the output to
 * drain, so memory stays flat whatever the count; each returns how many it wrote.
 */
export type ListFormat = 'table' | 'json' | 'jsonl' | 'csv';

export function writeItems(
  items: AsyncIterable<StoredItem>,
  format: ListFormat,
  out: Writable,
): Promise<number> {
  switch (format) {
    case 'table':
      return writeTable(items, out);
    case 'json':
      return writeJsonArray(items, out);
    case 'jsonl':
      return writeJsonLines(items, out);
    case 'csv':
      return writeCsv(items, out);
  }
}

/** Rows in blocks: column widths are measured per block, the header printed once. */
const tableBlock = 500;

async function writeTable(items: AsyncIterable<StoredItem>, out: Writable): Promise<number> {
  let count = 0;
  let block: string[][] = [];
  const flush = async () => {
    const text = textTable(listHead, block);
    await write(out, count === block.length ? text : text.slice(text.indexOf('\n') + 1));
    block = [];
  };
  for await (const item of items) {
    block.push(listRow(item));
    count++;
    if (block.length === tableBlock) await flush();
  }
  if (block.length > 0) await flush();
  if (count === 0) await write(out, '(no transactions)\n');
  return count;
}

async function writeJsonArray(items: AsyncIterable<StoredItem>, out: Writable): Promise<number> {
  let count = 0;
  for await (const item of items) {
    const text = exactJson(listRecord(item), 2).replace(/\n/g, '\n  ');
    await write(out, `${count === 0 ? '[\n' : ',\n'}  ${text}`);
    count++;
  }
  await write(out, count === 0 ? '[]\n' : '\n]\n');
  return count;
}

async function writeJsonLines(items: AsyncIterable<StoredItem>, out: Writable): Promise<number> {
  let count = 0;
  for await (const item of items) {
    await write(out, `${exactJson(listRecord(item))}\n`);
    count++;
  }
  return count;
}

/**
 * CSV with a header row, numbers as their stored digits. Cells are written exactly as stored;
 * only when the output is a terminal are they escaped like every other view.
 */
async function writeCsv(items: AsyncIterable<StoredItem>, out: Writable): Promise<number> {
  const cell = (out as { isTTY?: boolean }).isTTY ? terminalText : (text: string) => text;
  let count = 0;
  async function* rows(): AsyncGenerator<string[]> {
    for await (const item of items) {
      count++;
      yield listFields.map((name) => cell(displayValue(item[name])));
    }
  }
  // pipeline waits on each stage's backpressure; `end: false` leaves stdout open.
  await pipeline(
    Readable.from(rows()),
    stringify({ header: true, columns: [...listFields] }),
    out,
    { end: false },
  );
  return count;
}

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}
