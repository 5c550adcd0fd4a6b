/**
 * The lists bench/console/list-pages.ts pages through, each as the console reads a page of it:
 * the reader its view calls, given the view's page size and the cursor the view's Next link
 * carries. Another list is one more entry: a name, its first page, and (when it has a cursor)
 * the page after one.
 */
import { Hono } from 'hono';
import type { ConsoleEnv } from '../../scripts/console/console-context.js';
import { consoleViews } from '../../scripts/console/views/console-views.js';
import { transactionPage } from '../../scripts/console/views/transaction-page.js';
import { conflictsPage, listConflicts } from '../../scripts/table/reference-state.js';
import type { QueryContext } from '../../scripts/table/transaction-queries.js';
import { searchTransactions } from '../../scripts/table/transaction-search.js';
import { busyUser } from './list-data.js';

/** Rows per page: the Transactions and Conflicts views' default, asked of Refusals by `?size=`. */
export const pageSize = 50;

/** What a list's reader is given: the two tables, and the console's own routes. */
export interface ListContext {
  readonly transactions: QueryContext;
  readonly refusals: QueryContext;
  /** The console's page at `path` (as a signed-in browser gets it), its HTML. */
  readonly view: (path: string) => Promise<string>;
}

/** A page: how many rows it shows, and the cursor of the page after it (none: the last). */
export interface Page<Cursor> {
  readonly rows: number;
  readonly next?: Cursor;
}

export interface ListReader<Cursor = unknown> {
  readonly name: string;
  readonly firstPage: (context: ListContext) => Promise<Page<Cursor>>;
  /** Absent: the list has no cursor (it is read whole, or is one page by design). */
  readonly nextPage?: (context: ListContext, cursor: Cursor) => Promise<Page<Cursor>>;
}

/** An entry of {@link lists}: its cursor's type is its own business. */
function list<Cursor>(reader: ListReader<Cursor>): ListReader {
  return reader as ListReader;
}

/** Each list the console pages through, and the one the CLI still reads whole. */
export const lists: readonly ListReader[] = [
  list({
    name: 'Transactions, newest first',
    firstPage: ({ transactions }) => transactionPage(transactions, {}, pageSize).then(counted),
    nextPage: ({ transactions }, after) =>
      transactionPage(transactions, {}, pageSize, after).then(counted),
  }),
  list({
    // A filter on the same queries: a fifth of the transactions are rejected ones.
    name: 'Transactions, status Reject',
    firstPage: ({ transactions }) =>
      transactionPage(transactions, { status: 'Reject' }, pageSize).then(counted),
    nextPage: ({ transactions }, after) =>
      transactionPage(transactions, { status: 'Reject' }, pageSize, after).then(counted),
  }),
  list({
    // Asked in lower case, as typed; stored as `Busy-User`.
    name: 'Transactions by user',
    firstPage: ({ transactions }) =>
      transactionPage(transactions, { username: busyUser.toLowerCase() }, pageSize).then(counted),
    nextPage: ({ transactions }, after) =>
      transactionPage(transactions, { username: busyUser.toLowerCase() }, pageSize, after).then(
        counted,
      ),
  }),
  list({
    name: 'Conflicts (open)',
    firstPage: ({ transactions }) =>
      conflictsPage(transactions, { all: false, limit: pageSize }).then(conflictsCounted),
    nextPage: ({ transactions }, after) =>
      conflictsPage(transactions, { all: false, limit: pageSize, after }).then(conflictsCounted),
  }),
  list({
    // The view reads its page itself (index, resolutions, first times), so the view is timed.
    name: 'Refusals (open), the view',
    firstPage: ({ view }) => view(`/refusals?size=${pageSize}`).then(refusalsShown),
    nextPage: ({ view }, path: string) => view(path).then(refusalsShown),
  }),
  // The search box (`/transactions?q=`): one text tried as every kind it can be, at most 50
  // matches of each; no cursor. Each text matches thousands at both sizes but the id.
  ...[
    ['Search, a reference prefix', 'scale-00'],
    ['Search, a gateway id', '10000042'],
    ['Search, a username in capitals', busyUser.toUpperCase()],
  ].map(([name, text]) =>
    list({
      name: name as string,
      firstPage: ({ transactions }) =>
        searchTransactions(transactions, text as string).then(({ rows }) => ({
          rows: rows.length,
        })),
    }),
  ),
  list({
    // `npm run query -- conflicts`: every conflict, no cursor.
    name: 'CLI query conflicts (whole index)',
    firstPage: ({ transactions }) =>
      listConflicts(transactions, { all: false }).then((all) => ({ rows: all.length })),
  }),
];

function counted<Cursor>({ rows, next }: { rows: readonly unknown[]; next?: Cursor }) {
  return { rows: rows.length, ...(next ? { next } : {}) };
}

function conflictsCounted<Cursor>({
  conflicts,
  next,
}: {
  conflicts: readonly unknown[];
  next?: Cursor;
}) {
  return counted({ rows: conflicts, next });
}

/** The rows of the Refusals view's table, and its Next page link (the path, unescaped). */
function refusalsShown(page: string): Page<string> {
  const body = /<tbody id="refusals">([\s\S]*?)<\/tbody>/.exec(page)?.[1];
  if (body === undefined) throw new Error(`no refusals table in the page: ${page.slice(0, 500)}`);
  const next = /<a href="([^"]*)" rel="next">/.exec(page)?.[1]?.replaceAll('&amp;', '&');
  return { rows: body.split('<tr>').length - 1, ...(next ? { next } : {}) };
}

/**
 * The console's views on a bare app, the session the sign-in would have set already there: the
 * views' own routes, without the cookie and host checks in front of them (createConsoleApp).
 */
export function consoleView(
  transactions: QueryContext,
  refusals: QueryContext,
): (path: string) => Promise<string> {
  const app = new Hono<ConsoleEnv>();
  app.use(async (c, next) => {
    c.set('session', { csrfToken: 'bench', expiresAt: Number.POSITIVE_INFINITY });
    await next();
  });
  const context = {
    tables: {
      client: transactions.client,
      tableName: transactions.tableName,
      refusalsTableName: refusals.tableName,
      description: 'bench',
    },
    mode: 'local' as const,
    allowActions: true,
  };
  for (const view of consoleViews) view(app, context);
  return async (path) => {
    const response = await app.request(path);
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    return response.text();
  };
}
