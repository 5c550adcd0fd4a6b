import { isUtf8 } from 'node:buffer';
import { refusalListAttributes, refusalsTable } from '../../lambda/refusals/refusals-table.js';
import { exactJson } from '../cli/output/exact-json.js';
import type { ListingView } from '../cli/output/listing.js';
import type { KeptRefusal, RefusalSummary } from '../table/refusal-item.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A kept refusal for scripts: the body as text when it is UTF-8, and always as base64 (byte
 * exact); like every JSON the tools print, terminal-unsafe characters become `\u` escapes.
 */
export function refusalRecord({ body, ...refusal }: KeptRefusal): Record<string, unknown> {
  return {
    ...refusal,
    // Not UTF-8: only base64 shows it faithfully.
    ...(isUtf8(body) ? { body: utf8.decode(body) } : {}),
    bodyBase64: Buffer.from(body).toString('base64'),
  };
}

/**
 * {@link refusalRecord} as JSON text, the body and its base64 each a piece of their own: the
 * whole record as one string (over 150 KB for a 64 KB body, escaped once more) made
 * `--format json` of 10,000 refusals peak above 300 MB.
 */
export function* refusalJsonPieces({ body, ...refusal }: KeptRefusal): Generator<string> {
  const rest = exactJson(refusal);
  // `rest` is an object: its text ends with `}`, reopened for the two body members.
  yield rest.length > 2 ? `${rest.slice(0, -1)},` : '{';
  if (isUtf8(body)) yield `"body":${exactJson(utf8.decode(body))},`;
  // A view of the same bytes, not a copy; base64 needs no escaping.
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  yield `"bodyBase64":"${bytes.toString('base64')}"}`;
}

/** The index's attributes, as it projects them: when, then the listed ones, the digest last. */
const refusalColumns = [
  refusalsTable.lastReceivedAt,
  ...refusalListAttributes.filter((name) => name !== refusalsTable.partitionKey),
  refusalsTable.partitionKey,
] as const;

/** The table and CSV: index columns only, so either can be fed from the index, no body read. */
const listColumns = {
  what: 'kept refusals',
  formats: ['table', 'json', 'jsonl', 'csv'],
  tableHead: ['Last received', 'Times', 'Status', 'Problem', 'Reference', 'Bytes', 'Digest'],
  tableRows: (refusal: RefusalSummary) => [
    [
      refusal.lastReceivedAt,
      String(refusal.deliveries),
      String(refusal.status),
      refusal.problem,
      refusal.reference ?? '',
      `${refusal.bodyBytes}${refusal.bodyKept === 'part' ? ' (part kept)' : ''}`,
      refusal.digest.slice(0, 16),
    ],
  ],
  alignRight: [1, 5],
  csvHead: refusalColumns,
  csvRows: (refusal: RefusalSummary) => [refusalColumns.map((name) => String(refusal[name] ?? ''))],
} as const satisfies Omit<ListingView<RefusalSummary>, 'json'>;

/** One line per kept refusal (every cell escaped for the terminal by textTable); no body in CSV. */
export const refusalView: ListingView<KeptRefusal> = {
  ...listColumns,
  json: refusalRecord,
  jsonPieces: refusalJsonPieces,
};

/**
 * {@link refusalView} from the index entries alone, for the formats that show no body (the
 * table, CSV): nothing is read back by key. Its JSON is the entry, never used for `json`.
 */
export const refusalListView: ListingView<RefusalSummary> = {
  ...listColumns,
  json: (refusal) => refusal,
};

/** Whether what `query refused` writes needs the bodies: JSON and JSON Lines show them. */
export function showsBodies(formats: readonly (string | undefined)[]): boolean {
  return formats.some((format) => format === 'json' || format === 'jsonl');
}
