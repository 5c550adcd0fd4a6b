import { textTable } from '../cli/output/text-table.js';
import type { ConflictView } from '../table/reference-state.js';
import { exactJson } from '../table/stored-item.js';

/** A conflict as `query conflicts` gives it to scripts: no raw item, the decision if any. */
export function conflictRecord(conflict: ConflictView) {
  const { item: _item, settlement, ...shown } = conflict;
  return {
    ...shown,
    status: settlement ? 'settled' : 'open',
    ...(settlement ? { settlement } : {}),
  };
}

export type ConflictFormat = 'table' | 'json' | 'jsonl';

/**
 * For a person: a line per conflict saying who it is and where it stands, then what it says
 * differently from the stored transaction, field by field. Every cell is escaped by textTable.
 */
export function conflictsText(conflicts: readonly ConflictView[], format: ConflictFormat): string {
  if (format === 'json') return `${exactJson(conflicts.map(conflictRecord), 2)}\n`;
  if (format === 'jsonl')
    return conflicts.map((conflict) => `${exactJson(conflictRecord(conflict))}\n`).join('');
  if (conflicts.length === 0) return '(no open conflicts)\n';
  const blocks = conflicts.map((conflict) => {
    const status = conflict.settlement
      ? `settled ${conflict.settlement.resolution} by ${conflict.settlement.settledBy} at ` +
        `${conflict.settlement.settledAt}: ${conflict.settlement.reason}`
      : 'open';
    const head = textTable(
      [
        'Reference',
        'Conflict',
        'Version',
        'First received',
        'Last received',
        'Deliveries',
        'Status',
      ],
      [
        [
          conflict.reference,
          conflict.id,
          String(conflict.transactionVersion),
          conflict.firstReceivedAt,
          conflict.lastReceivedAt,
          String(conflict.deliveries),
          status,
        ],
      ],
      { alignRight: [2, 5] },
    );
    const rows = conflict.differences.map(({ field, stored, received }) => [
      field,
      stored ?? '(absent)',
      received ?? '(absent)',
    ]);
    const differences =
      rows.length === 0
        ? '  (no difference from the stored transaction)\n'
        : textTable(
            ['  Field', 'Stored', 'Received'],
            rows.map(([field, ...rest]) => [`  ${field}`, ...rest] as string[]),
          );
    return head + differences;
  });
  const count = `${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}\n`;
  return `${blocks.join('\n')}\n${count}`;
}
