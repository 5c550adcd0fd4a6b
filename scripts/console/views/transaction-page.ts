import { foldedUsername } from '../../../lambda/storage/transaction-item.js';
import type { StoredItem } from '../../table/stored-item.js';
import { type TimeWindow, timeWindow } from '../../table/time-window.js';
import {
  type Filters,
  getTransaction,
  listByTime,
  listByUsername,
  type QueryContext,
} from '../../table/transaction-queries.js';

/** The list's filters, as the form sends them (empty fields are absent). */
export interface TransactionFilters extends Filters {
  readonly reference?: string;
  readonly username?: string;
  readonly since?: string;
  readonly until?: string;
}

/** Where a page starts: just after this row in newest-first order. */
export interface Cursor {
  readonly at: string;
  readonly reference: string;
}

/** The newest rows the page already shows, so a live update brings only newer ones. */
export interface Newest {
  readonly at: string;
  /** The references shown at exactly `at` (rows recorded in the same millisecond). */
  readonly seen: readonly string[];
}

const beginning = '2000-01-01T00:00:00.000Z';
const end = '9999-12-31T23:59:59.999Z';

/** `since`/`until` as the CLI reads them (ISO dates or times); open ends reach any time. */
export function windowOf(filters: TransactionFilters): TimeWindow {
  if (filters.since === undefined && filters.until === undefined) {
    return { since: beginning, lastIncluded: end };
  }
  return timeWindow(filters.since ?? beginning, filters.until ?? end.slice(0, 10));
}

/**
 * One page, newest first, through the CLI's query plan: a reference is one read; a username one
 * `byUser` query; otherwise one `byTime` query per shard, merged. Each query asks for a page and
 * one more row, so a page costs the same number of requests at any table size.
 */
export async function transactionPage(
  context: QueryContext,
  filters: TransactionFilters,
  size: number,
  after?: Cursor,
): Promise<{ rows: StoredItem[]; next?: Cursor }> {
  if (filters.reference !== undefined) {
    const { transaction } = await getTransaction(context, filters.reference);
    const rows = transaction && matches(transaction, filters) ? [transaction] : [];
    return { rows };
  }
  const window = windowOf(filters);
  const bounded = after
    ? { ...window, lastIncluded: minIso(window.lastIncluded, after.at) }
    : window;
  const rows: StoredItem[] = [];
  for await (const item of listed({ ...context, pageSize: size + 1 }, filters, bounded)) {
    if (
      after &&
      item.receivedAt === after.at &&
      String(item.reference).localeCompare(after.reference) <= 0
    ) {
      continue;
    }
    if (rows.length === size) {
      const last = rows[rows.length - 1] as StoredItem;
      return { rows, next: { at: String(last.receivedAt), reference: String(last.reference) } };
    }
    rows.push(item);
  }
  return { rows };
}

/**
 * What was recorded since `newest` under the same filters (at most `limit`, newest first): the
 * live update of the first page, the same queries as a page.
 */
export async function newerTransactions(
  context: QueryContext,
  filters: TransactionFilters,
  newest: Newest,
  limit: number,
): Promise<StoredItem[]> {
  if (filters.reference !== undefined) return [];
  const window = windowOf(filters);
  if (window.lastIncluded < newest.at) return [];
  const since = newest.at > window.since ? newest.at : window.since;
  const rows: StoredItem[] = [];
  for await (const item of listed({ ...context, pageSize: limit }, filters, { ...window, since })) {
    const at = String(item.receivedAt);
    if (at === newest.at && newest.seen.includes(String(item.reference))) continue;
    if (at < newest.at) break;
    rows.push(item);
    if (rows.length === limit) break;
  }
  return rows;
}

function listed(context: QueryContext, filters: TransactionFilters, window: TimeWindow) {
  const { type, status } = filters;
  const only = { ...(type && { type }), ...(status && { status }) };
  return filters.username !== undefined
    ? listByUsername(context, filters.username, only, window)
    : listByTime(context, window, only);
}

function matches(item: StoredItem, filters: TransactionFilters): boolean {
  const within = windowOf(filters);
  const at = String(item.receivedAt);
  return (
    (filters.username === undefined ||
      foldedUsername(String(item.username)) === foldedUsername(filters.username)) &&
    (filters.type === undefined || item.type === filters.type) &&
    (filters.status === undefined || item.status === filters.status) &&
    at >= within.since &&
    at <= within.lastIncluded
  );
}

function minIso(a: string, b: string): string {
  return a < b ? a : b;
}
