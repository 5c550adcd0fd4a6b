import Big from 'big.js';
import type { ListingView } from '../cli/output/listing.js';
import { displayValue, type StoredItem } from '../table/stored-item.js';

/** One group of `summary`: a currency, type and status (and day, with `--by day`). */
export interface SummaryRow {
  readonly day?: string;
  readonly currency: string;
  readonly type: string;
  readonly status: string;
  readonly count: number;
  /** The exact decimal sum of `amount` in minor units, as a string: never through a float. */
  readonly amount: string;
}

/**
 * Counts and sums a stream of transactions by group. Amounts are added with big.js from their
 * stored digits, so 38-digit amounts and fractions sum exactly. Memory holds one entry per group,
 * whatever the number of transactions.
 */
export async function summarize(
  items: AsyncIterable<StoredItem>,
  options: { readonly byDay: boolean },
): Promise<SummaryRow[]> {
  const groups = new Map<
    string,
    { row: Omit<SummaryRow, 'count' | 'amount'>; count: number; sum: Big }
  >();
  for await (const item of items) {
    const row = {
      // receivedAt is ISO-8601 in UTC: its first ten characters are the UTC day.
      ...(options.byDay ? { day: displayValue(item.receivedAt).slice(0, 10) } : {}),
      currency: displayValue(item.currency),
      type: displayValue(item.type),
      status: displayValue(item.status),
    };
    const key = JSON.stringify(row);
    const group = groups.get(key) ?? { row, count: 0, sum: new Big(0) };
    group.count += 1;
    group.sum = group.sum.plus(displayValue(item.amount));
    groups.set(key, group);
  }
  return [...groups.values()]
    .map(({ row, count, sum }) => ({ ...row, count, amount: sum.toFixed() }))
    .sort(
      (a, b) =>
        (a.day ?? '').localeCompare(b.day ?? '') ||
        a.currency.localeCompare(b.currency) ||
        a.type.localeCompare(b.type) ||
        a.status.localeCompare(b.status),
    );
}

const columns = ['currency', 'type', 'status', 'count', 'amount'] as const;

export const summaryFormats = ['table', 'json', 'jsonl', 'csv'] as const;

/** The summary's groups as table rows, JSON objects or CSV; amounts as exact decimal strings. */
export function summaryView(byDay: boolean): ListingView<SummaryRow> {
  const names = byDay ? (['day', ...columns] as const) : columns;
  const cells = (row: SummaryRow) => [names.map((name) => String(row[name] ?? ''))];
  return {
    what: 'groups',
    formats: summaryFormats,
    tableHead: names.map((name) => (name === 'amount' ? 'amount (minor)' : name)),
    tableRows: cells,
    alignRight: [names.indexOf('count'), names.indexOf('amount')],
    json: (row) => row,
    csvHead: names,
    csvRows: cells,
  };
}
