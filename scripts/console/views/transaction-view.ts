import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { Settlement } from '../../../lambda/settle/settlement.js';
import {
  type TransactionVersion,
  transactionVersions,
} from '../../operations/transaction-history.js';
import type { StoredItem } from '../../table/stored-item.js';
import { getTransaction } from '../../table/transaction-queries.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
import { deliveryStates } from './event-delivery.js';
import { exchangeList, fieldsTable, type ShownElsewhere } from './exchange-parts.js';
import { type PublishedEvent, publishedEvents } from './published-events.js';
import {
  conflictAnchor,
  conflictsSection,
  eventsSection,
  exchangeOf,
  historySection,
  type Locate,
  settlementsList,
} from './transaction-sections.js';
import { transactionSummary } from './transaction-summary.js';
import {
  type TabLinks,
  type TransactionTab,
  tabLinks,
  tabOf,
  tabsNav,
} from './transaction-tabs.js';

/** Attributes the fields table points to rather than repeats: each is shown in another tab. */
function elsewhere(links: TabLinks): ShownElsewhere {
  return {
    rawBody: { href: links.to('exchange', 'exchange-body'), text: 'in the Exchange tab' },
    headers: { href: links.to('exchange', 'exchange-headers'), text: 'in the Exchange tab' },
    history: { href: links.to('history'), text: 'in the History tab' },
    correction: { href: links.to('history'), text: 'in the History tab' },
    settlements: { href: links.to('exchange'), text: "in the Exchange tab's outcome" },
  };
}

/**
 * One transaction, as `npm run query -- get` reads it (the same `getTransaction`): a summary,
 * then one tab of every field, the exchange that delivered it, its versions, the conflicting
 * deliveries kept for it and the events the stack published for it (`?tab=`, transaction-tabs.ts).
 */
export function transactionView(app: Hono<ConsoleEnv>, console: ConsoleContext): void {
  const context = { client: console.tables.client, tableName: console.tables.tableName };

  app.get('/transactions/:reference', async (c) => {
    const reference = c.req.param('reference');
    const found = await getTransaction(context, reference).catch((error: unknown) => {
      // A key DynamoDB cannot hold (over 2,048 bytes) names no transaction.
      if (error instanceof Error && error.name === 'ValidationException') return undefined;
      throw error;
    });
    const transaction = found?.transaction;
    if (found === undefined || transaction === undefined) {
      c.status(404);
      return page(c, console, {
        title: 'Transaction not found',
        section: '/transactions',
        body: html`<p class="notice error" role="alert">No transaction is recorded with the reference <code>${shown(reference)}</code>. References are matched exactly, case included.</p>
<p><a href="/transactions">All transactions</a></p>`,
      });
    }
    const tab = tabOf(c.req.query('tab'));
    const links = tabLinks(reference);
    const { conflicts } = found;
    const settlements = (transaction.settlements ?? {}) as Record<string, Settlement>;
    const versions = transactionVersions(transaction);
    const events = publishedEvents(transaction, conflicts, conflictAnchor);
    const read: TransactionRead = { transaction, conflicts, settlements, versions, events, links };

    return page(c, console, {
      title: 'Transaction',
      section: '/transactions',
      body: html`${transactionSummary(transaction, read)}
${tabsNav(links, tab, { history: versions.length, conflicts: conflicts.length, events: events.length })}
<section class="tab-panel" aria-labelledby="${tab}">
${await panels[tab](read, console)}
</section>`,
    });
  });
}

/** Everything one read of the reference gives, which every tab's panel draws from. */
interface TransactionRead {
  readonly transaction: StoredItem;
  readonly conflicts: readonly StoredItem[];
  readonly settlements: Record<string, Settlement>;
  readonly versions: readonly TransactionVersion[];
  readonly events: readonly PublishedEvent[];
  readonly links: TabLinks;
}

/** Where the content with a fingerprint is: its conflict's anchor, else its version's. */
function locator({ conflicts, versions }: TransactionRead): Locate {
  return (fingerprint) => {
    const conflict = conflicts.find((item) => item.fingerprint === fingerprint);
    if (conflict) return conflictAnchor(conflict);
    const version = versions.find((item) => item.fingerprint === fingerprint);
    return version ? `version-${version.version}` : undefined;
  };
}

/** Each tab's panel; its `h2` carries the tab's name as its id. */
const panels: Record<
  TransactionTab,
  (read: TransactionRead, console: ConsoleContext) => unknown | Promise<unknown>
> = {
  fields: ({ transaction, links }) => html`<h2 id="fields">Fields</h2>
${fieldsTable(transaction, 'Every attribute as stored, in the order of query get; numbers as their stored digits', elsewhere(links))}`,

  exchange: (read) => {
    const { transaction, versions, settlements, links } = read;
    const current = versions.at(-1);
    const corrected = current !== undefined && current.version > 1;
    const correction = transaction.correction as StoredItem | undefined;
    const outcome = html`recorded (204)${
      corrected
        ? html`; this is version ${current.version}, accepted by an operator (<a href="${links.to('history')}">history</a>)`
        : ''
    }${settlementsList(settlements, locator(read), links)}`;
    return html`<h2 id="exchange">Exchange</h2>
<p class="muted">${corrected ? `The delivery of version ${current.version}, the content an operator accepted; earlier versions' deliveries are in the History tab.` : 'The delivery that recorded it.'}</p>
${exchangeList(exchangeOf(transaction, correction?.deliveredAt ?? transaction.receivedAt), outcome, 'exchange')}`;
  },

  history: (read) => {
    const { transaction, versions, links } = read;
    const entries = (Array.isArray(transaction.history) ? transaction.history : []) as StoredItem[];
    return historySection(versions, entries, locator(read), links);
  },

  conflicts: ({ conflicts, transaction, settlements, links }) =>
    conflictsSection(conflicts, transaction, settlements, links),

  // Only this tab reads the forwarding folder (local mode with --forward-events).
  events: async ({ events, links }, console) =>
    eventsSection(
      events,
      links,
      console.eventFiles && (await deliveryStates(console.eventFiles, events)),
    ),
};
