import type { Hono } from 'hono';
import { html } from 'hono/html';
import type { Settlement } from '../../../lambda/settle/settlement.js';
import { transactionVersions } from '../../operations/transaction-history.js';
import type { StoredItem } from '../../table/stored-item.js';
import { getTransaction } from '../../table/transaction-queries.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
import { deliveryStates } from './event-delivery.js';
import { exchangeList, fieldsTable, type ShownElsewhere } from './exchange-parts.js';
import { publishedEvents } from './published-events.js';
import {
  conflictAnchor,
  conflictsSection,
  eventsSection,
  exchangeOf,
  historySection,
  settlementsList,
} from './transaction-sections.js';

/** Attributes the fields table points to rather than repeats: each has its own section. */
const elsewhere: ShownElsewhere = {
  rawBody: { href: '#exchange-body', text: 'in the exchange below' },
  headers: { href: '#exchange-headers', text: 'in the exchange below' },
  history: { href: '#history', text: 'in the history below' },
  correction: { href: '#history', text: 'in the history below' },
  settlements: { href: '#exchange', text: "in the exchange's outcome below" },
};

/**
 * One transaction, as `npm run query -- get` reads it (the same `getTransaction`): every field,
 * the exchange that delivered it, its versions, the conflicting deliveries kept for it and the
 * events the stack published for it.
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
    const { conflicts } = found;
    const settlements = (transaction.settlements ?? {}) as Record<string, Settlement>;
    const versions = transactionVersions(transaction);
    const entries = (Array.isArray(transaction.history) ? transaction.history : []) as StoredItem[];
    const locate = (fingerprint: string) => {
      const conflict = conflicts.find((item) => item.fingerprint === fingerprint);
      if (conflict) return `#${conflictAnchor(conflict)}`;
      const version = versions.find((item) => item.fingerprint === fingerprint);
      return version ? `#version-${version.version}` : undefined;
    };
    const events = publishedEvents(transaction, conflicts, conflictAnchor);
    const delivery = console.eventFiles && (await deliveryStates(console.eventFiles, events));
    const current = versions.at(-1);
    const correction = transaction.correction as StoredItem | undefined;
    const outcome = html`recorded (204)${
      current && current.version > 1
        ? html`; this is version ${current.version}, accepted by an operator (<a href="#history">history</a>)`
        : ''
    }${settlementsList(settlements, locate)}`;

    return page(c, console, {
      title: 'Transaction',
      section: '/transactions',
      body: html`<p class="reference">Reference <code>${shown(reference)}</code> · <a href="/transactions">All transactions</a></p>
<nav aria-label="On this page" class="on-page"><ul>
<li><a href="#fields">Fields</a></li><li><a href="#exchange">Exchange</a></li><li><a href="#history">History (${versions.length})</a></li>
<li><a href="#conflicts">Conflicting deliveries (${conflicts.length})</a></li><li><a href="#events">Events (${events.length})</a></li>
</ul></nav>
<h2 id="fields">Fields</h2>
${fieldsTable(transaction, 'Every attribute as stored, in the order of npm run query -- get; numbers as their stored digits', elsewhere)}
<h2 id="exchange">Exchange</h2>
<p class="muted">${current && current.version > 1 ? `The delivery of version ${current.version}, the content an operator accepted; earlier versions' deliveries are in the history.` : 'The delivery that recorded it.'}</p>
${exchangeList(exchangeOf(transaction, correction?.deliveredAt ?? transaction.receivedAt), outcome, 'exchange')}
${historySection(versions, entries, locate)}
${conflictsSection(conflicts, transaction, settlements)}
${eventsSection(events, delivery)}`,
    });
  });
}
