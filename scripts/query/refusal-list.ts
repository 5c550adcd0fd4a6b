import { textTable } from '../shared/text-table.js';
import type { KeptRefusal } from './refusal-queries.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text when it is UTF-8, else undefined (then only base64 can show it faithfully). */
export function bodyText(body: Uint8Array): string | undefined {
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}

/** One line per kept refusal; every cell escaped for the terminal by textTable. */
export function refusalTable(refusals: readonly KeptRefusal[]): string {
  if (refusals.length === 0) return '(no kept refusals)\n';
  const head = ['Last received', 'Times', 'Status', 'Problem', 'Reference', 'Bytes', 'Digest'];
  const rows = refusals.map((refusal) => [
    refusal.lastReceivedAt,
    String(refusal.deliveries),
    String(refusal.status),
    refusal.problem,
    refusal.reference ?? '',
    `${refusal.bodyBytes}${refusal.bodyKept === 'part' ? ' (part kept)' : ''}`,
    refusal.digest.slice(0, 16),
  ]);
  const count = `${refusals.length} kept refusal${refusals.length === 1 ? '' : 's'}\n`;
  return textTable(head, rows, { alignRight: [1, 5] }) + count;
}

/** JSON for scripts: the body as text when it is UTF-8, and always as base64 (byte exact). */
export function refusalJson(refusals: readonly KeptRefusal[]): string {
  const shown = refusals.map(({ body, ...refusal }) => {
    const text = bodyText(body);
    return {
      ...refusal,
      ...(text !== undefined ? { body: text } : {}),
      bodyBase64: Buffer.from(body).toString('base64'),
    };
  });
  return `${JSON.stringify(shown, null, 2)}\n`;
}
