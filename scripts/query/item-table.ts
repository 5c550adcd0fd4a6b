import { detailLines, textTable } from '../shared/text-table.js';
import { displayValue, orderAttributes, type StoredItem } from './stored-item.js';

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

export const listHead: readonly string[] = listColumns.map(([, title]) => title);

export function listRow(item: StoredItem): string[] {
  return listColumns.map(([name]) => displayValue(item[name]));
}

export function listTable(items: readonly StoredItem[]): string {
  if (items.length === 0) return '(no transactions)\n';
  return textTable(listHead, items.map(listRow));
}

/** The detail view of one item: `name  value` lines; the raw body last, as received. */
export function detailTable(item: StoredItem): string {
  return detailLines(
    Object.entries(orderAttributes(item)).map(([name, value]) => [name, displayValue(value)]),
  );
}
