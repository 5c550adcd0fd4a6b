import { isUtf8 } from 'node:buffer';
import type { ListingView } from '../output/listing.js';
import type { KeptRefusal } from './kept-refusals.js';

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

const refusalColumns = [
  'lastReceivedAt',
  'deliveries',
  'status',
  'problem',
  'reference',
  'bodyBytes',
  'bodyKept',
  'digest',
] as const;

/** One line per kept refusal (every cell escaped for the terminal by textTable); no body in CSV. */
export const refusalView: ListingView<KeptRefusal> = {
  what: 'kept refusals',
  formats: ['table', 'json', 'jsonl', 'csv'],
  tableHead: ['Last received', 'Times', 'Status', 'Problem', 'Reference', 'Bytes', 'Digest'],
  tableRows: (refusal) => [
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
  json: refusalRecord,
  csvHead: refusalColumns,
  csvRows: (refusal) => [refusalColumns.map((name) => String(refusal[name] ?? ''))],
};
