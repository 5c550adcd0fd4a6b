import Table from 'cli-table3';
import { terminalText } from './terminal-text.js';

/** No rules, two spaces between columns: the tools' tables read like `ls -l`, and copy cleanly. */
const plain = {
  chars: {
    top: '',
    'top-mid': '',
    'top-left': '',
    'top-right': '',
    bottom: '',
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: '  ',
  },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
};

/**
 * A table for a terminal: every cell escaped (see terminal-text.ts), columns sized by display
 * width (cli-table3 measures with string-width, so CJK and emoji keep columns aligned).
 */
export function textTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  options: { readonly alignRight?: readonly number[] } = {},
): string {
  const table = new Table({
    ...plain,
    head: head.map(terminalText),
    colAligns: head.map((_, column) => (options.alignRight?.includes(column) ? 'right' : 'left')),
  });
  for (const row of rows) table.push(row.map(terminalText));
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

/** `name  value` lines (a detail view), names padded to one column, values escaped. */
export function detailLines(entries: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...entries.map(([name]) => name.length));
  return entries
    .map(([name, value]) => `${terminalText(name).padEnd(width)}  ${terminalText(value)}\n`)
    .join('');
}
