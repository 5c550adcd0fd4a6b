/** `npm run reconcile`: the gateway's report against the table (docs/operations.md). */
import { createReadStream } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { extname } from 'node:path';
import { text } from 'node:stream/consumers';
import { Option } from '@commander-js/extra-typings';
import { withTableOptions, withTarget } from '../query/query-target.js';
import { exactJson } from '../query/stored-item.js';
import { optionalWindow, timeWindow } from '../query/time-window.js';
import { unreadableFile } from '../shared/cli-errors.js';
import { commandProgram, exitCodes, runProgram } from '../shared/command-program.js';
import { textTable } from '../shared/text-table.js';
import { type ReconciledValues, type ReportFormat, readReport } from './gateway-report.js';
import {
  agrees,
  type Finding,
  type ReconcileSummary,
  reconcile,
  tableSources,
} from './reconciliation.js';

const program = withTableOptions(
  commandProgram(
    'reconcile',
    "Compare the gateway's report of completed transactions with what was recorded, by reference.",
    { ok: 'the report and the table agree', differences: 'differences found' },
  )
    .argument('<report>', 'CSV with a header naming the fields, or JSON Lines; - for stdin')
    .option('--since <ISO>', 'window start, inclusive (default: yesterday 00:00 UTC)')
    .option(
      '--until <ISO>',
      'window end, exclusive (default: now; with no --since, today 00:00 UTC)',
    )
    .addOption(
      new Option('--format <format>', 'output').choices(['table', 'json']).default('table'),
    )
    .addOption(
      new Option('--report-format <format>', 'default: by extension, else by content').choices([
        'csv',
        'jsonl',
      ]),
    ),
).action(async (reportPath, options) => {
  const window = reconcileWindow(options.since, options.until);
  if (reportPath !== '-') {
    await access(reportPath, constants.R_OK).catch((error: unknown) => {
      throw unreadableFile('the report', reportPath, error);
    });
  }
  const format = options.reportFormat ?? (await detectFormat(reportPath));
  const input = reportPath === '-' ? process.stdin : createReadStream(reportPath);
  await withTarget(options, async (target) => {
    const sources = {
      report: readReport(input, format),
      ...tableSources(target, window),
    };
    // JSON streams one finding per line as it is found, so a large report's differences reach
    // a file or jq without being held; the tables need them all.
    const findings: Finding[] = [];
    const summary = await reconcile(sources, (finding) => {
      if (options.format === 'json') process.stdout.write(`${exactJson(finding)}\n`);
      else findings.push(finding);
    });
    process.stdout.write(
      options.format === 'json'
        ? `${exactJson({ kind: 'summary', ...summary })}\n`
        : `${findingsTables(findings)}Window ${window.since} to ${window.lastIncluded} in ${target.description}.\n${summaryText(summary)}`,
    );
    process.exitCode = agrees(summary) ? exitCodes.ok : exitCodes.differences;
  });
});

/** A day by default: the daily reconcile compares yesterday's report with yesterday. */
function reconcileWindow(since: string | undefined, until: string | undefined) {
  const window = optionalWindow(since, until);
  if (window) return window;
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const yesterday = new Date(today.getTime() - 86_400_000);
  return timeWindow(yesterday.toISOString(), today.toISOString());
}

/** By extension; else JSON Lines when the first non-blank character is `{`, CSV otherwise. */
async function detectFormat(path: string): Promise<ReportFormat> {
  const extension = extname(path).toLowerCase();
  if (extension === '.csv' || path === '-') return 'csv';
  if (['.jsonl', '.ndjson', '.json'].includes(extension)) return 'jsonl';
  const start = await text(createReadStream(path, { end: 511 }));
  return start
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{')
    ? 'jsonl'
    : 'csv';
}

const values = (v: ReconciledValues) => [v.amount, v.currency, v.type, v.status];
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

/** One table per kind of difference. */
function findingsTables(findings: readonly Finding[]): string {
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

function summaryText(summary: ReconcileSummary): string {
  const outside = summary.recordedOutsideWindow;
  return (
    `${summary.agreeing} of ${summary.reportRows} report rows agree` +
    `${outside > 0 ? ` (${outside} recorded outside the window)` : ''}; ` +
    `${summary.recordedInWindow} recorded in the window.\n` +
    `missing ${summary.missing}, unexpected ${summary.unexpected}, mismatch ${summary.mismatch}, ` +
    `references with conflicts ${summary.conflicts}\n`
  );
}

await runProgram(program, 'reconcile');
