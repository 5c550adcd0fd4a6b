import { BoundedTable } from '../../cli/output/bounded-table.js';
import type { MachineShape } from '../../cli/output/machine-output.js';
import { type ReconciledValues, reconciledFields } from './gateway-report.js';
import type { Finding, KeptConflict, ReconcileSummary } from './reconcile.js';

/** Differences a terminal shows per kind; the rest are counted (and all are in the formats). */
export const rowsPerKind = 20;

/** The fields declared `reconciled`, as columns. */
const valueHeads = reconciledFields();
const values = (v: ReconciledValues) =>
  valueHeads.map((name) => (v as Record<string, string>)[name] ?? '');

/** A conflict's state in one word: `open`, or the decision on it. */
const state = (conflict: KeptConflict) => conflict.state;

/** What a mismatch contradicts, in one phrase: the newest decision on the reference. */
export function contradicted(settled: readonly KeptConflict[] | undefined): string {
  const decisions = (settled ?? [])
    .flatMap((conflict) => (conflict.settlement ? [conflict.settlement] : []))
    .sort((a, b) => a.settledAt.localeCompare(b.settledAt));
  const last = decisions.at(-1);
  if (last === undefined) return '';
  const kept = last.resolution === 'stored' ? 'kept the stored content' : 'accepted a correction';
  return `contradicts the settlement: ${last.settledBy} ${kept} at ${last.settledAt}`;
}

/** The command that settles an open conflict, as the terminal and the docs give it. */
export const settleHint = 'npm run settle -- <reference> --accept received|stored --reason "…"';

/**
 * Per kind: the table's title, its columns, and the rows of one finding (the terminal's tables
 * and the console's Reconcile view).
 */
export const findingSections: {
  readonly [Kind in Finding['kind']]: readonly [
    title: string,
    head: readonly string[],
    rows: (finding: Extract<Finding, { kind: Kind }>) => string[][],
  ];
} = {
  missing: [
    'Missing: in the report, never recorded here (ask the gateway to resend)',
    ['line', 'reference', ...valueHeads],
    ({ line, reference, report }) => [[String(line), reference, ...values(report)]],
  ],
  unexpected: [
    'Unexpected: recorded here in the window, not in the report',
    ['reference', 'receivedAt', ...valueHeads],
    ({ recorded }) => [[recorded.reference, recorded.receivedAt, ...values(recorded)]],
  ],
  mismatch: [
    'Mismatch: same reference, other values',
    ['line', 'reference', 'field', 'report', 'recorded', 'note'],
    ({ line, reference, differences, settled }) =>
      differences.map((d) => [
        String(line),
        reference,
        d.field,
        d.report,
        d.recorded,
        contradicted(settled),
      ]),
  ],
  conflicts: [
    `Open conflicts: refused with 409, waiting for a decision (${settleHint})`,
    ['reference', 'conflict', 'state', 'receivedAt', ...valueHeads, 'requestId'],
    ({ conflicts }) =>
      conflicts.map((c) => [c.reference, c.id, state(c), c.receivedAt, ...values(c), c.requestId]),
  ],
  settled: [
    'Settled conflicts: decided by an operator, the table holds the decision (not a difference)',
    ['reference', 'conflict', 'decision', 'settledBy', 'settledAt', 'reason', 'receivedAt'],
    ({ conflicts }) =>
      conflicts.map((c) => [
        c.reference,
        c.id,
        state(c),
        c.settlement?.settledBy ?? '',
        c.settlement?.settledAt ?? '',
        c.settlement?.reason ?? '',
        c.receivedAt,
      ]),
  ],
};

export const findingKinds = Object.keys(findingSections) as Finding['kind'][];

/**
 * The table view: one bounded table per kind, so a report that differs wholesale costs the
 * memory of its first rows, and a count of the rest.
 */
export class FindingsTables {
  readonly #tables = new Map(
    findingKinds.map((kind) => {
      const [, head, rows] = findingSections[kind];
      const rowsOf = rows as (finding: Finding) => string[][];
      return [kind, new BoundedTable<Finding>(head, rowsOf, { limit: rowsPerKind })];
    }),
  );

  add(finding: Finding): void {
    this.#tables.get(finding.kind)?.add(finding);
  }

  /** Differences not shown. */
  get hidden(): number {
    return [...this.#tables.values()].reduce((sum, table) => sum + table.hidden, 0);
  }

  render(): string {
    return findingKinds
      .map((kind) => {
        const table = this.#tables.get(kind) as BoundedTable<Finding>;
        if (table.count === 0) return '';
        const more = table.hidden > 0 ? `… and ${table.hidden} more ${kind}\n` : '';
        return `${findingSections[kind][0]}\n${table.render()}${more}`;
      })
      .filter((text) => text !== '')
      .join('\n');
  }
}

export function summaryText(summary: ReconcileSummary): string {
  const outside = summary.recordedOutsideWindow;
  return (
    `${summary.agreeing} of ${summary.reportRows} report rows agree` +
    `${outside > 0 ? ` (${outside} recorded outside the window)` : ''}; ` +
    `${summary.recordedInWindow} recorded in the window.\n` +
    `missing ${summary.missing}, unexpected ${summary.unexpected}, mismatch ${summary.mismatch}, ` +
    `open conflicts ${summary.openConflicts}, settled conflicts ${summary.settledConflicts}\n`
  );
}

const csvHead = [
  'kind',
  'line',
  'reference',
  'receivedAt',
  'field',
  'report',
  'recorded',
  ...valueHeads,
  'requestId',
  'conflict',
  'state',
  'settledBy',
  'settledAt',
  'reason',
  'note',
] as const;
type CsvColumn = (typeof csvHead)[number];

function csvRow(cells: Partial<Record<CsvColumn, string | number>>): string[] {
  return csvHead.map((name) => String(cells[name] ?? ''));
}

/** Machine formats: a finding as it is in JSON; in CSV one flat row per table row. */
export const findingShape: MachineShape<Finding> = {
  json: (finding) => finding,
  csvHead,
  csvRows: (finding) => {
    const { kind } = finding;
    switch (finding.kind) {
      case 'missing':
        return [
          csvRow({ kind, line: finding.line, reference: finding.reference, ...finding.report }),
        ];
      case 'unexpected':
        return [csvRow({ kind, ...finding.recorded })];
      case 'mismatch':
        return finding.differences.map((d) =>
          csvRow({
            kind,
            line: finding.line,
            reference: finding.reference,
            receivedAt: finding.receivedAt,
            field: d.field,
            report: d.report,
            recorded: d.recorded,
            note: contradicted(finding.settled),
          }),
        );
      case 'conflicts':
      case 'settled':
        return finding.conflicts.map(({ id, settlement, state, ...conflict }) =>
          csvRow({
            kind,
            ...conflict,
            conflict: id,
            state,
            settledBy: settlement?.settledBy,
            settledAt: settlement?.settledAt,
            reason: settlement?.reason,
          }),
        );
    }
  },
};
