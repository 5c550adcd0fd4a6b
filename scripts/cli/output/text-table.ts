import Table from 'cli-table3';
import { terminalText } from '../terminal-text.js';

/** No rules, two spaces between columns: the tools' tables read like `ls -l`, and copy cleanly. */
const rules = [
  ...['top', 'bottom'].flatMap((edge) => [edge, `${edge}-mid`, `${edge}-left`, `${edge}-right`]),
  ...['left', 'mid', 'right'].flatMap((edge) => [edge, `${edge}-mid`]),
];
const plain = {
  chars: { ...Object.fromEntries(rules.map((name) => [name, ''])), middle: '  ' },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
};

/** Every cell escaped; cli-table3 sizes columns by display width, so CJK and emoji align. */
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
  // One push per row: spreading every row into one call overflows the stack past ~100k rows.
  for (const row of rows) table.push(row.map(terminalText));
  return `${table.toString().replace(/ +$/gm, '')}\n`;
}

/** `name  value` lines (a detail view), names padded to one column, values escaped. */
export function detailLines(entries: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...entries.map(([name]) => name.length));
  return entries
    .map(([name, value]) => `${terminalText(name).padEnd(width)}  ${terminalText(value)}\n`)
    .join('');
}
