import { textTable } from '../cli/output/text-table.js';
import { displayValue, type StoredItem } from '../table/stored-item.js';

/** One version of a transaction: what it said, and who made it the stored one, when and why. */
export interface TransactionVersion {
  readonly version: number;
  readonly current: boolean;
  readonly fingerprint: string;
  /** When it became the stored version: its delivery for the first, the settle for later ones. */
  readonly since: string;
  /** `gateway` for the first delivery, else the operator who accepted it. */
  readonly by: string;
  readonly why: string;
  /** Absent on the current version. */
  readonly superseded?: { readonly at: string; readonly by: string; readonly reason: string };
  readonly transaction: StoredItem;
}

/** The fields of a transaction's content as stored (the item's own bookkeeping left out). */
const bookkeeping = new Set([
  'record',
  'rawBody',
  'fingerprint',
  'receivedAt',
  'hashResult',
  'keyId',
  'requestId',
  'sourceIp',
  'headers',
  'usernameKey',
  'timeShard',
  'settlements',
  'version',
  'revision',
  'history',
  'correction',
  'lastChange',
]);

/** Every version, oldest first, the current one last (one version for a never-corrected item). */
export function transactionVersions(item: StoredItem): TransactionVersion[] {
  const history = (Array.isArray(item.history) ? item.history : []) as StoredItem[];
  const versions = history.map(
    (entry): TransactionVersion => ({
      version: Number(displayValue(entry.version)),
      current: false,
      fingerprint: String(entry.fingerprint ?? ''),
      ...origin(entry.correction as StoredItem | undefined, String(entry.deliveredAt ?? '')),
      superseded: {
        at: String(entry.supersededAt ?? ''),
        by: String(entry.supersededBy ?? ''),
        reason: String(entry.reason ?? ''),
      },
      transaction: (entry.transaction ?? {}) as StoredItem,
    }),
  );
  const current = item.correction as StoredItem | undefined;
  versions.push({
    version: item.version === undefined ? 1 : Number(displayValue(item.version)),
    current: true,
    fingerprint: String(item.fingerprint ?? ''),
    ...origin(current, String(item.receivedAt ?? '')),
    transaction: Object.fromEntries(
      Object.entries(item).filter(([name]) => !bookkeeping.has(name)),
    ),
  });
  return versions;
}

function origin(correction: StoredItem | undefined, deliveredAt: string) {
  if (!correction) return { since: deliveredAt, by: 'gateway', why: 'first delivery' };
  return {
    since: String(correction.settledAt ?? ''),
    by: String(correction.settledBy ?? ''),
    why: `accepted the content delivered ${String(correction.deliveredAt ?? '')}: ${String(correction.reason ?? '')}`,
  };
}

/** The history's columns, as `query get` prints them and the console shows them. */
export const historyHead = ['Version', 'Since', 'By', 'Why', 'Changed', 'Fingerprint'] as const;

/** One row per version, oldest first: the cells of {@link historyHead}. */
export function historyRows(versions: readonly TransactionVersion[]): string[][] {
  return versions.map((version, index) => [
    `${version.version}${version.current ? ' (current)' : ''}`,
    version.since,
    version.by,
    version.why,
    index === 0 ? '' : changes(versions[index - 1]?.transaction ?? {}, version.transaction),
    version.fingerprint.slice(0, 12),
  ]);
}

/** The history table of `query get`: nothing for a transaction never corrected. */
export function historyTable(item: StoredItem): string {
  const versions = transactionVersions(item);
  if (versions.length === 1) return '';
  return `\nHistory (${versions.length} versions, oldest first):\n${textTable(
    [...historyHead],
    historyRows(versions),
  )}`;
}

/** `field: before → after` for each field a version changed (`hash` left out: it is a digest). */
function changes(before: StoredItem, after: StoredItem): string {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (name) => name !== 'hash',
  );
  return names
    .filter((name) => displayValue(before[name]) !== displayValue(after[name]))
    .map(
      (name) =>
        `${name}: ${displayValue(before[name]) || '(absent)'} → ${displayValue(after[name]) || '(absent)'}`,
    )
    .join('; ');
}
