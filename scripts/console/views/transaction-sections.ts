import { html } from 'hono/html';
import type { Settlement } from '../../../lambda/settle/settlement.js';
import { exactJson } from '../../cli/output/exact-json.js';
import {
  historyHead,
  historyRows,
  type TransactionVersion,
} from '../../operations/transaction-history.js';
import { conflictIdLength } from '../../table/reference-state.js';
import type { StoredItem } from '../../table/stored-item.js';
import { shown } from '../html/shown-text.js';
import type { DeliveryState } from './event-delivery.js';
import { type Exchange, exchangeList, fieldsTable } from './exchange-parts.js';
import type { PublishedEvent } from './published-events.js';
import type { TabLinks } from './transaction-tabs.js';

/**
 * The panels of the transaction page's tabs besides its fields and exchange: its history of
 * versions, the conflicting deliveries kept for it and the events published for it. Each links
 * to the others by anchor (`version-N`, `conflict-<id>`) in the tab that holds it (TabLinks).
 */

/** A conflict's anchor: its id as `npm run settle -- --conflict` takes it. */
export function conflictAnchor(conflict: StoredItem): string {
  return `conflict-${String(conflict.fingerprint ?? '').slice(0, conflictIdLength)}`;
}

/** The anchor of the content with this fingerprint: a conflict's, else a version's. */
export type Locate = (fingerprint: string) => string | undefined;

/** The delivery attributes of an item or a history entry, as the exchange shows them. */
export function exchangeOf(item: StoredItem, receivedAt: unknown): Exchange {
  return {
    receivedAt: String(receivedAt ?? ''),
    rawBody: item.rawBody,
    headers: item.headers,
    keyId: item.keyId,
    hashResult: item.hashResult,
    requestId: item.requestId,
    sourceIp: item.sourceIp,
  };
}

/** An operator's decision on a content, in words. */
export function decisionText(settlement: Settlement): string {
  const what = {
    received: `accepted as version ${settlement.version}`,
    stored: 'refused: the stored content was kept',
    superseded: `replaced by version ${settlement.version}`,
  }[settlement.resolution];
  return `${what ?? settlement.resolution}, by ${settlement.settledBy} at ${settlement.settledAt}: ${settlement.reason}`;
}

/** Every decision on this reference's contents (`npm run settle`), each linking to its content. */
export function settlementsList(
  settlements: Record<string, Settlement>,
  locate: Locate,
  links: TabLinks,
) {
  const entries = Object.entries(settlements);
  if (entries.length === 0) return '';
  return html`<ul class="settlements">${entries.map(([fingerprint, settlement]) => {
    const anchor = locate(fingerprint);
    const href = anchor === undefined ? undefined : links.of(anchor);
    const name = fingerprint.slice(0, conflictIdLength);
    return html`<li>Settled: content ${href ? html`<a href="${href}">${shown(name)}</a>` : shown(name)} ${shown(decisionText(settlement))}</li>`;
  })}</ul>`;
}

/** The versions, as `npm run query -- get` lists them, and each earlier version's exchange. */
export function historySection(
  versions: readonly TransactionVersion[],
  entries: readonly StoredItem[],
  locate: Locate,
  links: TabLinks,
) {
  const rows = historyRows(versions);
  const earlier = versions.filter((version) => !version.current);
  return html`<h2 id="history">History</h2>
<p class="muted">${versions.length === 1 ? 'One version: the content first delivered, never corrected.' : `${versions.length} versions, oldest first.`}</p>
<div class="table-wrap"><table class="history">
<thead><tr>${historyHead.map((title) => html`<th scope="col">${title}</th>`)}</tr></thead>
<tbody>${versions.map((version, index) => {
    const cells = rows[index] ?? [];
    // Only a version that came from a conflicting delivery links: to that delivery.
    const anchor = locate(version.fingerprint);
    return html`<tr id="version-${version.version}">${cells.map((cell, column) =>
      column === cells.length - 1 && anchor?.startsWith('conflict-')
        ? html`<td class="mono"><a href="${links.of(anchor)}" title="the conflicting delivery with this content">${shown(cell)}</a></td>`
        : html`<td${column === 0 ? html` class="num"` : ''}>${shown(cell)}</td>`,
    )}</tr>`;
  })}</tbody>
</table></div>
${earlier.map((version, index) => earlierVersion(version, entries[index] ?? {}))}`;
}

/** A replaced version: its history entry keeps its content and the delivery that brought it. */
function earlierVersion(version: TransactionVersion, entry: StoredItem) {
  return html`<details class="earlier" id="version-${version.version}-exchange">
<summary>Version ${version.version}: its fields and the exchange that delivered it</summary>
${fieldsTable(version.transaction, `Version ${version.version} as it was stored`)}
${exchangeList(exchangeOf(entry, entry.deliveredAt), html`replaced at ${shown(version.superseded?.at)} by ${shown(version.superseded?.by)}: ${shown(version.superseded?.reason)}`, `version-${version.version}`)}
</details>`;
}

/** Each conflicting delivery: what it claimed against the stored fields, and its exchange. */
export function conflictsSection(
  conflicts: readonly StoredItem[],
  stored: StoredItem,
  settlements: Record<string, Settlement>,
  links: TabLinks,
) {
  if (conflicts.length === 0) {
    return html`<h2 id="conflicts">Conflicting deliveries</h2><p class="muted">None: no delivery claimed this reference with other content.</p>`;
  }
  return html`<h2 id="conflicts">Conflicting deliveries</h2>
<p class="muted">${conflicts.length} kept for audit, newest first; each was refused with 409. Differences from the stored fields are marked.</p>
${conflicts.map((conflict) => {
  const anchor = conflictAnchor(conflict);
  const fingerprint = String(conflict.fingerprint ?? '');
  const settlement = settlements[fingerprint];
  const became =
    settlement?.resolution === 'received' ? links.of(`version-${settlement.version}`) : undefined;
  const deliveries = String(conflict.deliveries ?? 1);
  const outcome = html`conflict (409), ${deliveries === '1' ? 'delivered once' : html`delivered ${shown(deliveries)} times, last at ${shown(conflict.lastReceivedAt)}`}; ${settlement ? html`settled: ${shown(decisionText(settlement))}${became ? html` (<a href="${became}">see version ${settlement.version}</a>)` : ''}` : 'open'}`;
  return html`<section class="conflict" id="${anchor}" aria-labelledby="${anchor}-title">
<h3 id="${anchor}-title">Conflicting delivery ${shown(anchor.slice('conflict-'.length))}</h3>
${fieldsTable((conflict.transaction ?? {}) as StoredItem, 'What it claimed', {}, stored)}
${exchangeList(exchangeOf(conflict, conflict.receivedAt), outcome, anchor)}
</section>`;
})}`;
}

/**
 * The events the stack published for this reference, as its consumer builds them; with local
 * forwarding, where each one stands.
 */
export function eventsSection(
  events: readonly PublishedEvent[],
  links: TabLinks,
  delivery?: readonly DeliveryState[],
) {
  return html`<h2 id="events">Events published</h2>
<p class="muted">What the deployed stack's stream consumer publishes for this reference's changes, rebuilt here by the same code; duplicates publish nothing.${delivery ? ' Delivery: where local forwarding (--forward-events) stands with each.' : ''}</p>
${
  events.length === 0
    ? html`<p class="muted">None.</p>`
    : html`<div class="table-wrap"><table class="events">
<thead><tr><th scope="col">Event</th><th scope="col">Time</th><th scope="col">For</th>${delivery ? html`<th scope="col">Delivery</th>` : ''}<th scope="col">Detail</th></tr></thead>
<tbody>${events.map(
        (
          event,
          index,
        ) => html`<tr><td>${shown(event.detailType)}</td><td class="mono">${shown(event.at)}</td>
<td><a href="${links.of(event.anchor)}">${shown(event.anchor.replace('-', ' '))}</a></td>
${delivery ? html`<td class="delivery">${deliveryCell(delivery[index])}</td>` : ''}
<td>${event.detail === undefined ? html`<p class="notice error">${shown(event.problem)}</p>` : html`<pre>${indented(event.detail)}</pre>`}</td></tr>`,
      )}</tbody>
</table></div>`
}`;
}

function deliveryCell(state: DeliveryState | undefined) {
  if (state === undefined) return '';
  if (state.state === 'dead letter') {
    return html`dead letter <span class="muted">after ${state.attempts} tries: ${shown(state.problem)}; npm run redrive -- --forward-to sends it again</span>`;
  }
  if (state.state === 'not in the outbox') {
    return html`not in the outbox <span class="muted">(delivered before it was compacted, or recorded before forwarding started)</span>`;
  }
  return state.state;
}

/**
 * Published JSON text, indented for reading: numbers keep their digits, and characters a page
 * could be fooled by are already `\uXXXX` escapes (exactJson), so only the indentation's own
 * line breaks are real ones.
 */
function indented(detail: string) {
  const lines = exactJson(JSON.parse(detail), 2).split('\n');
  return lines.map((line, index) => (index === 0 ? shown(line) : html`\n${shown(line)}`));
}
