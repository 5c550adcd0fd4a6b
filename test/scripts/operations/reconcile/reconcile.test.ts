import { Readable } from 'node:stream';
import Big from 'big.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type ReportFormat,
  type ReportRow,
  readReport,
} from '../../../../scripts/operations/reconcile/gateway-report.js';
import {
  type Finding,
  type ReconcileSummary,
  reconcile,
  tableSources,
} from '../../../../scripts/operations/reconcile/reconcile.js';
import { timeWindow } from '../../../../scripts/table/time-window.js';
import { forEachEngine, type TestTable } from '../../../support/engines.js';
import {
  csv,
  type Fields,
  jsonLines,
  type SeededScenario,
  seedScenario,
  since,
  type TableAsRead,
  until,
} from './support/reconcile-scenario.js';

/**
 * reconcile against a brute-force oracle, on both engines: the table is read whole (a scan),
 * the report held whole, and every reference compared by linear search. reconcile must find
 * exactly what the oracle finds, for CSV in any column order and quoting, and for JSON Lines.
 */

const window = timeWindow(since, until);

/** The oracle: everything in memory, compared by linear search. */
function oracle(report: readonly Fields[], table: TableAsRead) {
  const found: string[] = [];
  const conflictReferences = new Set<string>();
  const noteConflicts = (reference: string) => {
    if (table.conflicts.some((conflict) => conflict.reference === reference)) {
      conflictReferences.add(reference);
    }
  };
  report.forEach((row, index) => {
    const line = index + 2;
    const recorded = table.transactions.find((item) => item.reference === row.reference);
    if (recorded === undefined) found.push(`missing ${line} ${row.reference}`);
    else {
      const differing = (['amount', 'currency', 'type', 'status'] as const).filter((name) =>
        name === 'amount' ? !new Big(row.amount).eq(recorded.amount) : row[name] !== recorded[name],
      );
      if (differing.length > 0)
        found.push(`mismatch ${line} ${row.reference} ${differing.join(',')}`);
    }
    noteConflicts(row.reference);
  });
  for (const item of table.transactions) {
    const inWindow = item.receivedAt >= since && item.receivedAt < until;
    if (inWindow && !report.some((row) => row.reference === item.reference)) {
      found.push(`unexpected ${item.reference}`);
      noteConflicts(item.reference);
    }
  }
  for (const reference of conflictReferences) found.push(`conflicts ${reference}`);
  return found.sort();
}

function describeFinding(finding: Finding, lineOffset = 0): string {
  switch (finding.kind) {
    case 'missing':
      return `missing ${finding.line + lineOffset} ${finding.reference}`;
    case 'mismatch':
      return `mismatch ${finding.line + lineOffset} ${finding.reference} ${finding.differences.map((d) => d.field).join(',')}`;
    case 'unexpected':
      return `unexpected ${finding.reference}`;
    case 'conflicts':
      return `conflicts ${finding.reference}`;
    case 'settled':
      return `settled ${finding.reference}`;
  }
}

async function run(
  table: TestTable,
  report: AsyncIterable<ReportRow>,
): Promise<{ findings: Finding[]; summary: ReconcileSummary }> {
  const findings: Finding[] = [];
  const sources = { report, ...tableSources(table, window) };
  const summary = await reconcile(sources, (finding) => {
    findings.push(finding);
  });
  return { findings, summary };
}

const rows = (text: string, format: ReportFormat) => readReport(Readable.from([text]), format);

forEachEngine((engine) => {
  let seeded: SeededScenario;
  let expected: string[];

  beforeAll(async () => {
    seeded = await seedScenario(engine);
    expected = oracle(seeded.report, seeded.tableAsRead);
  });
  afterAll(() => seeded?.table.drop());

  it('finds every category the oracle finds, from a CSV report with quoted cells', async () => {
    const { table, report } = seeded;
    const header = ['reference', 'amount', 'currency', 'type', 'status'];
    const { findings, summary } = await run(table, rows(csv(report, header), 'csv'));

    expect(findings.map((finding) => describeFinding(finding)).sort()).toEqual(expected);
    expect(expected.filter((line) => line.startsWith('missing'))).toHaveLength(2);
    expect(expected.filter((line) => line.startsWith('mismatch'))).toHaveLength(3);
    expect(expected.filter((line) => line.startsWith('unexpected'))).toHaveLength(1);
    expect(expected.filter((line) => line.startsWith('conflicts'))).toHaveLength(2);
    expect(summary).toMatchObject({
      reportRows: report.length,
      agreeing: 5,
      recordedOutsideWindow: 1,
    });
  });

  it('shows both values of a mismatch, and treats 1050.70 and 1050.7 as the same amount', async () => {
    const header = ['reference', 'amount', 'currency', 'type', 'status'];
    const { findings } = await run(seeded.table, rows(csv(seeded.report, header), 'csv'));
    const mismatches = findings.filter((finding) => finding.kind === 'mismatch');

    expect(mismatches.flatMap((finding) => finding.differences)).toEqual(
      expect.arrayContaining([
        { field: 'amount', report: '500.01', recorded: '500' },
        { field: 'status', report: 'Confirm', recorded: 'Reject' },
        { field: 'type', report: 'Deposit', recorded: 'Withdrawal' },
        { field: 'currency', report: 'USD', recorded: 'TRY' },
      ]),
    );
    expect(JSON.stringify(findings)).not.toContain('1050.70');
  });

  it('reads the columns by their header names, in any order, ignoring extra ones', async () => {
    const header = ['status', 'username', 'type', 'reference', 'id', 'currency', 'amount'];
    const { findings } = await run(seeded.table, rows(csv(seeded.report, header), 'csv'));

    expect(findings.map((finding) => describeFinding(finding)).sort()).toEqual(expected);
  });

  it('reads a JSON Lines report with numbers as written', async () => {
    const { findings } = await run(seeded.table, rows(jsonLines(seeded.report), 'jsonl'));

    // JSON Lines has no header line: row n is line n.
    expect(findings.map((finding) => describeFinding(finding, 1)).sort()).toEqual(expected);
  });

  it('lists everything recorded in the window as unexpected when the report is empty', async () => {
    const { findings, summary } = await run(
      seeded.table,
      rows('reference,amount,currency,type,status\r\n', 'csv'),
    );

    const inWindow = seeded.tableAsRead.transactions.filter(
      (t) => t.receivedAt >= since && t.receivedAt < until,
    );
    expect(
      findings
        .filter((finding) => finding.kind === 'unexpected')
        .map((f) => f.reference)
        .sort(),
    ).toEqual(inWindow.map((t) => t.reference).sort());
    expect(summary.reportRows).toBe(0);
  });
});
