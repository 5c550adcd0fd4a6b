import {
  type FieldDeclarations,
  transactionFields,
} from '../../lambda/callback/transaction-fields.js';
import type { ListingView } from '../cli/output/listing.js';
import { detailLines, textTable } from '../cli/output/text-table.js';
import {
  displayValue,
  listFieldsOf,
  listRecord,
  orderAttributes,
  type StoredItem,
} from '../table/stored-item.js';

/**
 * The list view's columns, one line per transaction: when, which reference, then the other
 * fields declared `listed`, in declaration order, under their declared titles.
 */
function listColumns(fields: FieldDeclarations): (readonly [name: string, title: string])[] {
  const listed = Object.entries(fields).flatMap(([name, field]) =>
    field.listed === false || name === 'reference' ? [] : [[name, field.listed] as const],
  );
  return [['receivedAt', 'receivedAt'], ['reference', 'reference'], ...listed];
}

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

/**
 * `list` and `export` under a declaration (tests: a fixture's): a transaction as a table row, a
 * JSON object or a CSV row, the columns those its fields declared `listed`.
 */
export function transactionViewOf(fields: FieldDeclarations): ListingView<StoredItem> {
  const columns = listColumns(fields);
  const listFields = listFieldsOf(fields);
  return {
    what: 'transactions',
    formats: ['table', 'json', 'jsonl', 'csv'],
    tableHead: columns.map(([, title]) => title),
    tableRows: (item) => [columns.map(([name]) => displayValue(item[name]))],
    json: (item) => listRecord(item, listFields),
    csvHead: listFields,
    csvRows: (item) => [listFields.map((name) => displayValue(item[name]))],
  };
}

export const transactionView = transactionViewOf(transactionFields);
