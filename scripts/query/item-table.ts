import { attributeText, type Item, orderAttributes } from './item-json.js';

/** The list view: one line per transaction, newest first. */
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

export function listTable(items: readonly Item[]): string {
  if (items.length === 0) return '(no transactions)\n';
  const header = listColumns.map(([, title]) => title);
  const rows = items.map((item) => listColumns.map(([name]) => attributeText(item[name])));
  return table([header, ...rows]);
}

/** The detail view of one item: `name  value` lines; the raw body last, as received. */
export function detailTable(item: Item): string {
  const ordered = orderAttributes(item);
  const width = Math.max(...Object.keys(ordered).map((name) => name.length));
  return Object.entries(ordered)
    .map(([name, value]) => `${name.padEnd(width)}  ${printable(attributeText(value))}\n`)
    .join('');
}

function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, displayWidth(printable(cell)));
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, column) => {
          const text = printable(cell);
          const last = column === row.length - 1;
          return last ? text : text + ' '.repeat((widths[column] ?? 0) - displayWidth(text));
        })
        .join('  '),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** Control characters (the conflict key separator U+001F, newlines) shown as escapes. */
function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

/** Terminal columns: East Asian wide characters take two, so CJK names keep columns aligned. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
