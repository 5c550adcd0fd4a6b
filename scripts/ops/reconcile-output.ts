import { textTable } from '../shared/text-table.js';
import type { Finding, ReconcileSummary } from './reconciliation.js';

export type OutputFormat = 'table' | 'json';

/**
 * `json`: one finding per line as it is found, then the counts (`"kind":"summary"`), so a large
 * report's differences stream to a file or `jq` without being held. Values stay the exact text
 * compared (amounts as decimal strings).
 */
export function findingJson(finding: Finding): string {
  return `${JSON.stringify(finding)}\n`;
}

export function summaryJson(summary: ReconcileSummary): string {
  return `${JSON.stringify({ kind: 'summary', ...summary })}\n`;
}

/** `table`: one table per kind of difference, then the counts. */
export function findingsTables(findings: readonly Finding[]): string {
  const sections: string[] = [];
  const of = <Kind extends Finding['kind']>(kind: Kind) =>
    findings.filter(
      (finding): finding is Extract<Finding, { kind: Kind }> => finding.kind === kind,
    );

  const missing = of('missing');
  if (missing.length > 0) {
    sections.push(
      section(
        'Missing: in the report, never recorded here (ask the gateway to resend)',
        ['line', 'reference', 'amount', 'currency', 'type', 'status'],
        missing.map(({ line, reference, report }) => [
          String(line),
          reference,
          report.amount,
          report.currency,
          report.type,
          report.status,
        ]),
      ),
    );
  }
  const unexpected = of('unexpected');
  if (unexpected.length > 0) {
    sections.push(
      section(
        'Unexpected: recorded here in the window, not in the report',
        ['reference', 'receivedAt', 'amount', 'currency', 'type', 'status'],
        unexpected.map(({ recorded }) => [
          recorded.reference,
          recorded.receivedAt,
          recorded.amount,
          recorded.currency,
          recorded.type,
          recorded.status,
        ]),
      ),
    );
  }
  const mismatch = of('mismatch');
  if (mismatch.length > 0) {
    sections.push(
      section(
        'Mismatch: same reference, other values',
        ['line', 'reference', 'field', 'report', 'recorded'],
        mismatch.flatMap(({ line, reference, differences }) =>
          differences.map((difference) => [
            String(line),
            reference,
            difference.field,
            difference.report,
            difference.recorded,
          ]),
        ),
      ),
    );
  }
  const conflicts = of('conflicts');
  if (conflicts.length > 0) {
    sections.push(
      section(
        'Conflicting deliveries kept for audit (refused with 409)',
        ['reference', 'receivedAt', 'amount', 'currency', 'type', 'status', 'requestId'],
        conflicts.flatMap(({ conflicts: kept }) =>
          kept.map((conflict) => [
            conflict.reference,
            conflict.receivedAt,
            conflict.amount,
            conflict.currency,
            conflict.type,
            conflict.status,
            conflict.requestId,
          ]),
        ),
      ),
    );
  }
  return sections.join('\n');
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

function section(title: string, head: string[], rows: string[][]): string {
  return `${title}\n${textTable(head, rows)}`;
}
