import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { transactionFields } from '../../../lambda/callback/transaction-fields.js';
import { UsageError } from '../../cli/cli-errors.js';
import { transactionView } from '../../operations/transaction-listing.js';
import type { StoredItem } from '../../table/stored-item.js';
import { searchTransactions } from '../../table/transaction-search.js';
import { ownAsset } from '../assets.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
import { statusBadge } from '../html/status-badge.js';
import { timeOf } from '../html/times.js';
import {
  type Cursor,
  type Newest,
  newerTransactions,
  type TransactionFilters,
  transactionPage,
} from './transaction-page.js';
import { searchBox, searchResults } from './transaction-search.js';

const defaultPageSize = 50;
const maxPageSize = 200;
/** Rows a live update adds at most; more than that in a second asks for a reload. */
const liveLimit = 100;
const filterNames = ['reference', 'username', 'status', 'type', 'since', 'until'] as const;

/**
 * The live update's pace (assets/live-poll.js): each poll is a query round. Local mode's table
 * costs nothing, so a second; a deployed table bills each read, so never more than one round per
 * 5 s per tab. Both back off to 30 s while nothing changes, and a hidden tab does not poll.
 */
export const livePace = {
  local: { minMs: 1_000, maxMs: 30_000 },
  deployed: { minMs: 5_000, maxMs: 30_000 },
} as const;

ownAsset('live-poll.js');

/** Transactions, newest first, filtered, paged by cursor; the first page follows new ones live. */
export function transactionsView(app: Hono<ConsoleEnv>, console: ConsoleContext): void {
  const context = { client: console.tables.client, tableName: console.tables.tableName };
  const pace = livePace[console.mode];

  app.get('/transactions', async (c) => {
    const q = c.req.query('q')?.trim() || undefined;
    if (q !== undefined) {
      const result = await searchTransactions(context, q);
      return page(c, console, {
        title: `Search: ${q}`,
        section: '/transactions',
        body: html`${searchBox(q)}${searchResults(q, result, row, transactionView.tableHead)}`,
      });
    }
    const filters = filtersOf(c);
    const cursor = decode(c.req.query('after'), isCursor);
    const size = pageSizeOf(c);
    const sized: Record<string, string> = size === defaultPageSize ? {} : { size: String(size) };
    let result: Awaited<ReturnType<typeof transactionPage>>;
    try {
      result = await transactionPage(context, filters, size, cursor);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return page(c, console, {
        title: 'Transactions',
        section: '/transactions',
        body: html`${searchBox(undefined)}${filterForm(filters)}<p class="notice error" role="alert">${error.message}</p>`,
      });
    }
    const { rows, next } = result;
    const newest = newestOf(rows);
    const live = cursor === undefined && filters.reference === undefined;
    return page(c, console, {
      title: 'Transactions',
      section: '/transactions',
      scripts: ['live-poll.js'],
      body: html`${searchBox(undefined)}${filterForm(filters)}
<div class="table-wrap"><table>
<caption class="muted">${rows.length === 0 ? 'No transactions match.' : cursor ? 'Older transactions' : 'Newest first'}${live ? ' · new ones appear as they are recorded' : ''}</caption>
<thead><tr>${transactionView.tableHead.map((title) => html`<th scope="col">${title}</th>`)}</tr></thead>
<tbody id="rows">${rows.map((item) => row(item))}</tbody>
</table></div>
${live ? poller(filters, newest, pace) : ''}
<p class="pager">${cursor ? html`<a href="/transactions?${query(filters, sized)}">Newest</a>` : ''}${next ? html`<a href="/transactions?${query(filters, { ...sized, after: encode(next) })}" rel="next">Older</a>` : ''}</p>`,
    });
  });

  // The first page's live update: newer rows go on top, and the poller comes back knowing them.
  app.get('/live/transactions', async (c) => {
    const filters = filtersOf(c);
    const newest = decode(c.req.query('newest'), isNewest) ?? { at: '', seen: [] };
    const rows = await newerTransactions(context, filters, newest, liveLimit);
    if (rows.length === 0) return c.body(null, 204);
    const top = newestOf(rows, newest);
    return c.html(
      html`<template><tbody hx-swap-oob="afterbegin:#rows">${rows.map((item) => row(item))}</tbody></template>${poller(filters, top, pace, true)}`,
    );
  });
}

/** `?size=`: rows per page, 1 to 200. */
function pageSizeOf(c: Context<ConsoleEnv>): number {
  const size = Number(c.req.query('size'));
  return Number.isInteger(size) && size >= 1 ? Math.min(size, maxPageSize) : defaultPageSize;
}

/** A transaction's row; `extra`, a cell after the declared columns (the search's "matched"). */
function row(item: StoredItem, extra: HtmlEscapedString | Promise<HtmlEscapedString> | '' = '') {
  const [cells = []] = transactionView.tableRows(item);
  const reference = String(item.reference);
  return html`<tr>${cells.map((cell, index) =>
    index === 0
      ? html`<td>${timeOf(cell)}</td>`
      : index === 1
        ? html`<td><a href="/transactions/${encodeURIComponent(reference)}">${shown(cell)}</a></td>`
        : index === statusColumn
          ? html`<td>${statusBadge(cell)}</td>`
          : html`<td${numeric[index] ? html` class="num"` : ''}>${shown(cell)}</td>`,
  )}${extra}</tr>`;
}

const statusColumn = transactionView.tableHead.indexOf('status');

/** Right-aligned columns: the declared integers and decimals. */
const numeric = [
  false,
  false,
  ...Object.entries(transactionFields)
    .filter(([name, field]) => field.listed !== false && name !== 'reference')
    .map(([, field]) => field.kind === 'integer' || field.kind === 'decimal'),
];

/** The live update's element: live-poll.js fires `live-poll` on it at the pace it carries. */
function poller(
  filters: TransactionFilters,
  newest: Newest,
  pace: { readonly minMs: number; readonly maxMs: number },
  outOfBand = false,
) {
  const url = `/live/transactions?${query(filters, { newest: encode(newest) })}`;
  return html`<div id="live" hx-get="${url}" hx-trigger="live-poll" hx-swap="none" data-min-ms="${pace.minMs}" data-max-ms="${pace.maxMs}"${outOfBand ? html` hx-swap-oob="true"` : ''}></div>`;
}

function newestOf(rows: readonly StoredItem[], previous?: Newest): Newest {
  const first = rows[0];
  if (first === undefined) return previous ?? { at: '', seen: [] };
  const at = String(first.receivedAt);
  const seen = rows.filter((item) => item.receivedAt === at).map((item) => String(item.reference));
  return { at, seen: previous?.at === at ? [...previous.seen, ...seen] : seen };
}

function filterForm(filters: TransactionFilters) {
  const field = (name: keyof TransactionFilters, label: string, hint = '') =>
    html`<label>${label}<input name="${name}" value="${filters[name] ?? ''}"${hint ? html` placeholder="${hint}"` : ''}></label>`;
  return html`<form class="filters" method="get" action="/transactions" role="search" aria-label="Filter transactions">
${field('reference', 'Reference')}${field('username', 'Username')}
${choice('status', 'Status', filters)}${choice('type', 'Type', filters)}
${field('since', 'Since (UTC)', '2026-11-25')}${field('until', 'Until (UTC)', '2026-11-25T12:00')}
<button type="submit">Filter</button> <a href="/transactions">Clear</a>
</form>`;
}

/** A field declared as an enumeration, offered as its values (the declaration is the list). */
function choice(name: 'status' | 'type', label: string, filters: TransactionFilters) {
  const field = transactionFields[name];
  const values = field.kind === 'enumeration' ? (field.values ?? []) : [];
  const selected = filters[name];
  if (values.length === 0) {
    return html`<label>${label}<input name="${name}" value="${selected ?? ''}"></label>`;
  }
  return html`<label>${label}<select name="${name}"><option value="">any</option>${values.map(
    (value) => html`<option${value === selected ? html` selected` : ''}>${value}</option>`,
  )}</select></label>`;
}

function filtersOf(c: Context<ConsoleEnv>): TransactionFilters {
  const entries = filterNames.flatMap((name) => {
    const value = c.req.query(name)?.trim();
    return value ? [[name, value] as const] : [];
  });
  return Object.fromEntries(entries);
}

function query(filters: TransactionFilters, extra: Record<string, string> = {}): string {
  return new URLSearchParams({ ...(filters as Record<string, string>), ...extra }).toString();
}

function encode(value: Cursor | Newest): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A cursor from the URL, or none when it is missing or not one of ours. */
function decode<T>(text: string | undefined, is: (value: unknown) => value is T): T | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return is(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isCursor(value: unknown): value is Cursor {
  const { at, reference } = (value ?? {}) as Record<string, unknown>;
  return typeof at === 'string' && typeof reference === 'string';
}

function isNewest(value: unknown): value is Newest {
  const { at, seen } = (value ?? {}) as Record<string, unknown>;
  return (
    typeof at === 'string' && Array.isArray(seen) && seen.every((ref) => typeof ref === 'string')
  );
}
