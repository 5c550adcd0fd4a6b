import { exactJson } from '../query/stored-item.js';
import { textTable } from '../shared/text-table.js';
import type { ComparedValues } from './gateway-report.js';
import type { Finding, ReconcileSummary } from './reconciliation.js';

export type OutputFormat = 'table' | 'json';

/**
 * `json`: one finding per line as it is found, then the counts (`"kind":"summary"`), so a large
 * report's differences stream to a file or `jq` without being held. Values stay the exact text
 * compared (amounts as decimal strings); characters a terminal would act on are `\u` escapes.
 */
export function findingJson(finding: Finding): string {
  return `${exactJson(finding)}\n`;
}

export function summaryJson(summary: ReconcileSummary): string {
  return `${exactJson({ kind: 'summary', ...summary })}\n`;
}

const values = (v: ComparedValues) => [v.amount, v.currency, v.type, v.status];
const valueHeads = ['amount', 'currency', 'type', 'status'];

/** Per kind: the table's title, its columns, and the rows of one finding. */
const sections: {
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
    ['line', 'reference', 'field', 'report', 'recorded'],
    ({ line, reference, differences }) =>
      differences.map((d) => [String(line), reference, d.field, d.report, d.recorded]),
  ],
  conflicts: [
    'Conflicting deliveries kept for audit (refused with 409)',
    ['reference', 'receivedAt', ...valueHeads, 'requestId'],
    ({ conflicts }) => conflicts.map((c) => [c.reference, c.receivedAt, ...values(c), c.requestId]),
  ],
};

/** `table`: one table per kind of difference, then the counts. */
export function findingsTables(findings: readonly Finding[]): string {
  return (Object.keys(sections) as Finding['kind'][])
    .map((kind) => {
      const [title, head, rowsOf] = sections[kind];
      const rows = findings
        .filter((finding) => finding.kind === kind)
        .flatMap((finding) => (rowsOf as (f: Finding) => string[][])(finding));
      return rows.length === 0 ? '' : `${title}\n${textTable(head, rows)}`;
    })
    .filter((text) => text !== '')
    .join('\n');
}

export function summaryText(summary: ReconcileSummary): string {
  const agreeing = `${summary.agreeing} of ${summary.reportRows} report rows agree`;
  const outside =
    summary.recordedOutsideWindow > 0
      ? ` (${summary.recordedOutsideWindow} recorded outside the window)`
      : '';
  return (
    `${agreeing}${outside}; ${summary.recordedInWindow} recorded in the window.\n` +
    `missing ${summary.missing}, unexpected ${summary.unexpected}, mismatch ${summary.mismatch}, ` +
    `references with conflicts ${summary.conflicts}\n`
  );
}
