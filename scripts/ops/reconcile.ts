/**
 * `npm run reconcile -- <report>`: the gateway's report of completed transactions against what
 * was recorded in a window, by reference. Exit 0 when everything agrees, 1 when anything
 * differs, 2 on a usage or input error (a malformed row names its line).
 */
import { access, constants, open } from 'node:fs/promises';
import { extname } from 'node:path';
import { Option } from 'commander';
import { openTarget } from '../query/query-target.js';
import { timeWindow } from '../query/time-window.js';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, runProgram } from '../shared/command-program.js';
import { withTableOptions } from './command-line.js';
import { openReport, type ReportFormat, readReport, reportFormatOf } from './gateway-report.js';
import { InputError } from './input-error.js';
import {
  findingJson,
  findingsTables,
  type OutputFormat,
  summaryJson,
  summaryText,
} from './reconcile-output.js';
import { agrees, type Finding, reconcile } from './reconciliation.js';
import { keptConflicts, recordedByReference, recordedInWindow } from './recorded-transactions.js';

interface ReconcileOptions {
  readonly since?: string;
  readonly until?: string;
  readonly format: OutputFormat;
  readonly reportFormat?: ReportFormat;
  readonly table?: string;
  readonly endpoint?: string;
}

const program = withTableOptions(
  commandProgram(
    'reconcile',
    "Compare the gateway's report of completed transactions with what was recorded, by reference.",
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
).action(async (reportPath: string, options: ReconcileOptions) => {
  const window = reconcileWindow(options.since, options.until);
  if (reportPath !== '-') await readable(reportPath);
  const format = options.reportFormat ?? (await detectFormat(reportPath));
  const report = readReport(openReport(reportPath), format);
  const target = await openTarget(options);
  try {
    const { client, tableName } = target;
    const findings = reconcile({
      report,
      recorded: recordedInWindow(client, tableName, window),
      lookup: (references) => recordedByReference(client, tableName, references),
      conflicts: keptConflicts(client, tableName),
    });
    const collected: Finding[] = [];
    let step = await findings.next();
    while (!step.done) {
      if (options.format === 'json') process.stdout.write(findingJson(step.value));
      else collected.push(step.value);
      step = await findings.next();
    }
    const summary = step.value;
    process.stdout.write(
      options.format === 'json'
        ? summaryJson(summary)
        : `${findingsTables(collected)}Window ${window.since} to ${window.lastIncluded} in ${target.description}.\n${summaryText(summary)}`,
    );
    process.exitCode = agrees(summary) ? 0 : 1;
  } finally {
    await target.close();
  }
});

/** A day by default: the daily reconcile compares yesterday's report with yesterday. */
function reconcileWindow(since: string | undefined, until: string | undefined) {
  if (since === undefined) {
    if (until !== undefined) throw new UsageError('--until needs --since');
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    const yesterday = new Date(today.getTime() - 86_400_000);
    return timeWindow(yesterday.toISOString(), today.toISOString());
  }
  return timeWindow(since, until);
}

async function readable(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new InputError(`cannot read the report ${path}`);
  }
}

async function detectFormat(path: string): Promise<ReportFormat> {
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (['.jsonl', '.ndjson', '.json'].includes(extension)) return 'jsonl';
  if (path === '-') return 'csv';
  const file = await open(path);
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(512), 0, 512, 0);
    return reportFormatOf(
      buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
  } finally {
    await file.close();
  }
}

await runProgram(program, 'reconcile');
