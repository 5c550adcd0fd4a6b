import { html } from 'hono/html';

/**
 * The transaction page's tabs. Each is a link to the same page with `?tab=<name>`, and the server
 * draws only that tab's panel: a tab works without a script, can be shared as a link, and the
 * browser's back and forward move between tabs. (ARIA's tab roles need a script to move focus;
 * a navigation of links marked `aria-current` needs none.)
 */
export const transactionTabs = ['fields', 'exchange', 'history', 'conflicts', 'events'] as const;

export type TransactionTab = (typeof transactionTabs)[number];

/** What the page opens on, and what a missing or unknown `?tab=` shows. */
export const defaultTab: TransactionTab = 'fields';

const titles: Record<TransactionTab, string> = {
  fields: 'Fields',
  exchange: 'Exchange',
  history: 'History',
  conflicts: 'Conflicts',
  events: 'Events',
};

/** `?tab=` as asked; anything else (absent, misspelt, hostile) is the default tab. */
export function tabOf(asked: string | undefined): TransactionTab {
  return transactionTabs.find((tab) => tab === asked) ?? defaultTab;
}

/** Links into one transaction's page: to a tab, or to a part of it by the part's anchor. */
export interface TabLinks {
  /** A tab, and optionally an anchor in it; the default tab is the page's own address. */
  to(tab: TransactionTab, anchor?: string): string;
  /** A version (`version-N`, `version-N-exchange`) or a conflict (`conflict-<id>`), in its tab. */
  of(anchor: string): string;
}

export function tabLinks(reference: string): TabLinks {
  const path = `/transactions/${encodeURIComponent(reference)}`;
  const to = (tab: TransactionTab, anchor?: string) =>
    `${path}${tab === defaultTab ? '' : `?tab=${tab}`}${anchor === undefined ? '' : `#${anchor}`}`;
  return {
    to,
    of: (anchor) => to(anchor.startsWith('conflict-') ? 'conflicts' : 'history', anchor),
  };
}

/** The tabs as links, the shown one marked; `counts` follows a tab's title where it has one. */
export function tabsNav(
  links: TabLinks,
  active: TransactionTab,
  counts: Partial<Record<TransactionTab, number>>,
) {
  return html`<nav aria-label="Transaction tabs" class="tabs"><ul>${transactionTabs.map((tab) => {
    const count = counts[tab];
    return html`<li><a href="${links.to(tab)}"${tab === active ? html` aria-current="page"` : ''}>${titles[tab]}${count === undefined ? '' : html` <span class="count">${count}</span>`}</a></li>`;
  })}</ul></nav>`;
}
