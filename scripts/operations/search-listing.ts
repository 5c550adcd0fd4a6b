import type { ListingView } from '../cli/output/listing.js';
import type { SearchedKind, SearchKind, SearchRow } from '../table/transaction-search.js';
import { transactionView } from './transaction-listing.js';

/** What each kind of search is called wherever a result says what it matched. */
export const searchKindNames: Record<SearchKind, string> = {
  id: 'gateway id',
  reference: 'reference',
  username: 'username',
};

/**
 * One line saying what a kind of search looked for and found, the same words in the console
 * and the terminal: `references starting with "T-10": 3 found`.
 */
export function searchedLine(searched: SearchedKind): string {
  const looked = JSON.stringify(searched.text);
  const what =
    searched.kind === 'id'
      ? `gateway id ${searched.text}`
      : searched.kind === 'reference'
        ? `references starting with ${looked}`
        : `username ${looked} in any letter case`;
  if (searched.unavailable !== undefined) return `${what}: not searched, ${searched.unavailable}`;
  const more = searched.more ? `, the first ${searched.found} shown: more match` : '';
  return `${what}: ${searched.found} found${more}`;
}

/** `query search`: the list's columns, then what each row matched. */
export const searchView: ListingView<SearchRow> = {
  what: 'transactions',
  formats: transactionView.formats,
  tableHead: [...transactionView.tableHead, 'matched'],
  tableRows: ({ item, matched }) =>
    transactionView
      .tableRows(item)
      .map((cells) => [...cells, matched.map((kind) => searchKindNames[kind]).join(', ')]),
  json: ({ item, matched }) => ({
    ...(transactionView.json(item) as Record<string, unknown>),
    matched,
  }),
  csvHead: [...transactionView.csvHead, 'matched'],
  csvRows: ({ item, matched }) =>
    transactionView.csvRows(item).map((cells) => [...cells, matched.join(' ')]),
};

/** What a search says of a text that can be none of the kinds, after quoting it its own way. */
export const unsearchable = 'cannot be a reference, a gateway id or a username';
