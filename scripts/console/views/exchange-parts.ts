import { html } from 'hono/html';
import { displayValue, orderAttributes, type StoredItem } from '../../table/stored-item.js';
import { shown, shownLines } from '../html/shown-text.js';

/**
 * Parts of the transaction page that a transaction and a conflicting delivery share: their
 * fields, and the exchange that delivered them. Every stored string goes through shown().
 */

/** Where an attribute too large or too structured for the fields table is shown instead. */
export type ShownElsewhere = Readonly<
  Record<string, { readonly href: string; readonly text: string }>
>;

/**
 * Every attribute in the CLI's order (`query get`), numbers as their stored digits. `stored`,
 * when given, marks the fields whose value differs from it (a conflict against the transaction).
 */
export function fieldsTable(
  item: StoredItem,
  caption: string,
  elsewhere: ShownElsewhere = {},
  stored?: StoredItem,
) {
  const rows = Object.entries(orderAttributes(item)).map(([name, value]) => {
    const moved = elsewhere[name];
    // `hash` is a digest of the content (salted with the key): it differs whenever anything does.
    const differs =
      stored !== undefined && name !== 'hash' && displayValue(stored[name]) !== displayValue(value);
    const cell = moved
      ? html`<td><a href="${moved.href}">${moved.text}</a></td>`
      : html`<td class="value${differs ? ' differs' : ''}">${shown(displayValue(value))}${differs ? html` <span class="muted">(stored: ${displayValue(stored?.[name]) === '' ? '(absent)' : shown(displayValue(stored?.[name]))})</span>` : ''}</td>`;
    return html`<tr><th scope="row">${shown(name)}</th>${cell}</tr>`;
  });
  return html`<div class="table-wrap"><table class="fields-table">
<caption class="muted">${caption}</caption>
<thead><tr><th scope="col">Attribute</th><th scope="col">Value</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}

/** What a delivery's exchange shows, besides its outcome. */
export interface Exchange {
  readonly receivedAt: string;
  readonly rawBody: unknown;
  readonly headers: unknown;
  readonly keyId: unknown;
  readonly hashResult: unknown;
  readonly requestId: unknown;
  readonly sourceIp: unknown;
}

/** The request as received and how it was answered: `outcome` is already rendered. */
export function exchangeList(exchange: Exchange, outcome: unknown, idPrefix: string) {
  const row = (term: string, value: unknown) =>
    html`<dt>${term}</dt><dd class="mono">${shown(displayValue(value))}</dd>`;
  return html`<dl class="fields exchange">
<dt>Outcome</dt><dd>${outcome}</dd>
${row('Received', exchange.receivedAt)}
${row('Key id', exchange.keyId)}
${row('Hash result', exchange.hashResult)}
${row('Request id', exchange.requestId)}
${row('Source IP', exchange.sourceIp)}
</dl>
<h3 id="${idPrefix}-headers">Request headers <span class="muted">(credentials never kept)</span></h3>
${headersTable(exchange.headers)}
<h3 id="${idPrefix}-body">Raw body, as received</h3>
<pre class="raw-body" aria-labelledby="${idPrefix}-body">${shownLines(displayValue(exchange.rawBody))}</pre>`;
}

/** The kept headers (JSON text on the item), in the order they were kept. */
function headersTable(stored: unknown) {
  if (stored === undefined) {
    return html`<p class="muted headers-none">None kept.</p>`;
  }
  const text = displayValue(stored);
  let headers: [string, string][] | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      headers = Object.entries(parsed).map(([name, value]) => [name, displayValue(value)]);
    }
  } catch {
    headers = undefined;
  }
  if (headers === undefined) return html`<pre>${shown(text)}</pre>`;
  if (headers.length === 0) return html`<p class="muted">None.</p>`;
  return html`<div class="table-wrap"><table class="headers">
<thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead>
<tbody>${headers.map(([name, value]) => html`<tr><th scope="row" class="mono">${shown(name)}</th><td class="value">${shown(value)}</td></tr>`)}</tbody>
</table></div>`;
}
