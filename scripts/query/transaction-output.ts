import type { ListingView } from '../output/listing.js';
import { detailLines, textTable } from '../shared/text-table.js';
import {
  displayValue,
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

/** `list` and `export`: a transaction as a table row, a JSON object or a CSV row. */
export const transactionView: ListingView<StoredItem> = {
  what: 'transactions',
  formats: ['table', 'json', 'jsonl', 'csv'],
  tableHead: listHead,
  tableRows: (item) => [listRow(item)],
  json: listRecord,
  csvHead: listFields,
  csvRows: (item) => [listFields.map((name) => displayValue(item[name]))],
};
