import type { ListingView } from '../cli/output/listing.js';
import type { ConflictView } from '../table/reference-state.js';

/** A conflict as `query conflicts` gives it to scripts: no raw item, the decision if any. */
export function conflictRecord(conflict: ConflictView) {
  const { item: _item, settlement, ...shown } = conflict;
  return {
    ...shown,
    status: settlement ? 'settled' : 'open',
    ...(settlement ? { settlement } : {}),
  };
}

/** Where a conflict stands, in one cell: open, or the decision with who, when and why. */
function statusText({ settlement }: ConflictView): string {
  if (!settlement) return 'open';
  const { resolution, settledBy, settledAt, reason } = settlement;
  return `settled ${resolution} by ${settledBy} at ${settledAt}: ${reason}`;
}

/** One row per differing field: what the conflict says differently from the stored transaction. */
function differenceRows(conflict: ConflictView): [string, string, string][] {
  if (conflict.differences.length === 0) return [['(no difference)', '', '']];
  return conflict.differences.map(({ field, stored, received }) => [
    field,
    stored ?? '(absent)',
    received ?? '(absent)',
  ]);
}

const conflictColumns = [
  'reference',
  'conflict',
  'version',
  'firstReceivedAt',
  'lastReceivedAt',
  'deliveries',
  'status',
] as const;

const conflictCells = (conflict: ConflictView): string[] => [
  conflict.reference,
  conflict.id,
  String(conflict.transactionVersion),
  conflict.firstReceivedAt,
  conflict.lastReceivedAt,
  String(conflict.deliveries),
  statusText(conflict),
];

/**
 * `query conflicts` in the listing convention: a bounded table with a row per differing field
 * (who the conflict is and where it stands on its first row), JSON and JSON Lines as
 * {@link conflictRecord}, CSV a row per differing field with the conflict repeated on each.
 */
export const conflictListView: ListingView<ConflictView> = {
  what: 'conflicts',
  formats: ['table', 'json', 'jsonl', 'csv'],
  tableHead: [
    'Reference',
    'Conflict',
    'Version',
    'First received',
    'Last received',
    'Deliveries',
    'Status',
    'Field',
    'Stored',
    'Received',
  ],
  alignRight: [2, 5],
  tableRows: (conflict) => {
    const blank = conflictColumns.map(() => '');
    return differenceRows(conflict).map((difference, index) => [
      ...(index === 0 ? conflictCells(conflict) : blank),
      ...difference,
    ]);
  },
  json: conflictRecord,
  csvHead: [...conflictColumns, 'field', 'stored', 'received'],
  csvRows: (conflict) =>
    differenceRows(conflict).map((difference) => [...conflictCells(conflict), ...difference]),
};
