import { html } from 'hono/html';
import type { Settlement } from '../../../lambda/settle/settlement.js';
import type { TransactionVersion } from '../../operations/transaction-history.js';
import { displayValue, type StoredItem } from '../../table/stored-item.js';
import { shown } from '../html/shown-text.js';
import { statusBadge } from '../html/status-badge.js';
import { timeOf } from '../html/times.js';
import type { TabLinks } from './transaction-tabs.js';

/** What the summary reads besides the item: the versions, the conflicts and their decisions. */
export interface SummaryParts {
  readonly versions: readonly TransactionVersion[];
  readonly conflicts: readonly StoredItem[];
  readonly settlements: Readonly<Record<string, Settlement>>;
  readonly links: TabLinks;
}

/**
 * The head of every tab: the reference, the gateway's verdict, the amount and the times that
 * matter (received, corrected), and the open conflicts. Each value is as
 * stored (digits as kept, ISO times); the tabs below hold the rest.
 */
export function transactionSummary(transaction: StoredItem, parts: SummaryParts) {
  const { versions, conflicts, settlements, links } = parts;
  const value = (name: string) => displayValue(transaction[name]);
  const fact = (term: string, detail: unknown) =>
    html`<div><dt>${term}</dt><dd>${detail}</dd></div>`;
  const current = versions.at(-1);
  const correction = transaction.correction as StoredItem | undefined;
  const open = conflicts.filter(
    (conflict) => settlements[displayValue(conflict.fingerprint)] === undefined,
  ).length;
  const amount = [value('amount'), value('currency')].filter((part) => part !== '').join(' ');
  return html`<section class="summary" aria-label="Summary">
<p class="summary-reference"><span class="muted">Reference</span> <code>${shown(value('reference'))}</code></p>
<dl class="summary-facts">
${fact('Status', statusBadge(value('status')))}
${fact('Amount', html`<span class="mono">${shown(amount)}</span>`)}
${fact('Type', shown(value('type')))}
${fact('Username', shown(value('username')))}
${fact('Received', timeOf(value('receivedAt')))}
${
  current && current.version > 1
    ? fact(
        'Corrected',
        html`<a href="${links.to('history')}">version ${current.version}</a>, ${timeOf(displayValue(correction?.settledAt))}`,
      )
    : ''
}
${conflicts.length > 0 ? fact('Conflicts', html`<a href="${links.to('conflicts')}">${conflictBadges(open, conflicts.length - open)}</a>`) : ''}
</dl>
<p class="summary-back"><a href="/transactions">All transactions</a></p>
</section>`;
}

/** How many conflicting contents wait for a decision, and how many have one. */
function conflictBadges(open: number, settled: number) {
  const badges = [
    open > 0 ? html`<span class="badge open">${open} open</span>` : undefined,
    settled > 0 ? html`<span class="badge ok">${settled} settled</span>` : undefined,
  ];
  return badges
    .filter((badge) => badge !== undefined)
    .map((badge, index) => (index === 0 ? badge : html` ${badge}`));
}
