import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { searchedLine, searchKindNames, unsearchable } from '../../operations/search-listing.js';
import type { StoredItem } from '../../table/stored-item.js';
import type { SearchedKind, SearchResult } from '../../table/transaction-search.js';

/** The one search box of the Transactions view: `GET /transactions?q=`, so a link can be shared. */
export function searchBox(q: string | undefined) {
  return html`<form class="filters search" method="get" action="/transactions" role="search" aria-label="Search transactions">
<label>Search<input type="search" name="q" value="${q ?? ''}" placeholder="reference or its start, gateway id, username" autocomplete="off"></label>
<button type="submit">Search</button>${q === undefined ? '' : html` <a href="/transactions">All transactions</a>`}
</form>`;
}

/**
 * A search's answer: what was searched and how much each kind found (and what it could not),
 * then the rows, each saying what it matched.
 */
export function searchResults(
  q: string,
  result: SearchResult,
  row: (item: StoredItem, extra: HtmlEscapedString | Promise<HtmlEscapedString>) => unknown,
  tableHead: readonly string[],
) {
  const caption =
    result.rows.length === 0
      ? `Nothing matches “${q}”.`
      : `${result.rows.length} ${result.rows.length === 1 ? 'transaction matches' : 'transactions match'} “${q}”`;
  return html`<section class="searched" aria-label="What was searched"><p class="searched-title">Searched:</p><ul class="searched-kinds">${result.searched.map(searched)}</ul>${
    result.searched.length === 0 ? html`<p class="notice">“${q}” ${unsearchable}.</p>` : ''
  }</section>
<div class="table-wrap"><table>
<caption class="muted">${caption}</caption>
<thead><tr>${tableHead.map((title) => html`<th scope="col">${title}</th>`)}<th scope="col">matched</th></tr></thead>
<tbody id="rows">${result.rows.map(({ item, matched }) =>
    row(item, html`<td>${matched.map((kind) => searchKindNames[kind]).join(', ')}</td>`),
  )}</tbody>
</table></div>`;
}

function searched(kind: SearchedKind) {
  const all =
    kind.kind === 'username' && kind.found > 0 && kind.unavailable === undefined
      ? html` · <a href="/transactions?${new URLSearchParams({ username: kind.text })}">all of this user's transactions</a>`
      : '';
  return html`<li>${searchedLine(kind)}${all}</li>`;
}
