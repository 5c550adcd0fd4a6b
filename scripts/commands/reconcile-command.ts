/** `npm run reconcile`: the gateway's report against the table (docs/operations.md). */
import { createReadStream } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { Option } from '@commander-js/extra-typings';
import { unreadableFile } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { moreLine } from '../cli/output/bounded-table.js';
import { type MachineWriter, machineWriter } from '../cli/output/machine-output.js';
import {
  closeOutputFile,
  openOutputFile,
  outputPlan,
  withOutputOptions,
} from '../cli/output/output-options.js';
import { withProgress } from '../cli/output/progress.js';
import { readReport } from '../operations/reconcile/gateway-report.js';
import {
  agrees,
  type Finding,
  reconcile,
  tableSources,
} from '../operations/reconcile/reconcile.js';
import { detectFormat, reconcileWindow } from '../operations/reconcile/reconcile-input.js';
import {
  FindingsTables,
  findingShape,
  summaryText,
} from '../operations/reconcile/reconcile-output.js';
import { withTableOptions, withTarget } from './table-target.js';

const formats = ['table', 'json', 'jsonl', 'csv'] as const;

const program = withTableOptions(
  withOutputOptions(
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
      ),
    formats,
  ).addOption(
    new Option('--report-format <format>', 'default: by extension, else by content').choices([
      'csv',
      'jsonl',
    ]),
  ),
).action(async (reportPath, options) => {
  const window = reconcileWindow(options.since, options.until);
  const plan = outputPlan(options, formats);
  if (reportPath !== '-') {
    await access(reportPath, constants.R_OK).catch((error: unknown) => {
      throw unreadableFile('the report', reportPath, error);
    });
  }
  const format = options.reportFormat ?? (await detectFormat(reportPath));
  const input = reportPath === '-' ? process.stdin : createReadStream(reportPath);
  const file = plan.file && (await openOutputFile(plan.file.path));
  try {
    await withTarget(options, async (target) => {
      // Every format streams: machine formats write each difference as it is found, the table
      // keeps the first rows of each kind and counts the rest.
      const writers: MachineWriter<Finding>[] = [];
      const machine = { ...options, summaryLine: true };
      if (plan.file && file)
        writers.push(machineWriter(plan.file.format, findingShape, file, machine));
      if (plan.terminal !== 'table') {
        writers.push(machineWriter(plan.terminal, findingShape, process.stdout, machine));
      }
      const tables = plan.terminal === 'table' ? new FindingsTables() : undefined;
      const table = tableSources(target, window);
      // The window is read whole first, then the report: each shows its own count.
      const sources = {
        ...table,
        recorded: () => withProgress(table.recorded(), 'recorded in the window'),
        report: withProgress(readReport(input, format), 'report rows'),
      };
      const summary = await reconcile(sources, async (finding) => {
        tables?.add(finding);
        for (const writer of writers) await writer.write(finding);
      });
      for (const writer of writers) await writer.end(summary);
      // On stderr, so the person reads it whatever --format sends to stdout: the default
      // window (yesterday) holds nothing on a first try the same day.
      const chosen = options.since === undefined ? ' (the default: yesterday, UTC)' : '';
      process.stderr.write(
        `reconcile: window ${window.since} to ${window.lastIncluded}${chosen}\n`,
      );
      if (summary.recordedInWindow === 0) {
        process.stderr.write(
          `reconcile: warning: nothing was recorded in the window: is it the report's day? (--since, --until)\n`,
        );
      }
      if (tables) {
        const where = `Window ${window.since} to ${window.lastIncluded} in ${target.description}.\n`;
        const all = plan.file
          ? `all differences written to ${plan.file.path}\n`
          : moreLine(tables.hidden, 'differences', 'json|jsonl|csv');
        process.stdout.write(`${tables.render()}${where}${summaryText(summary)}${all}`);
      }
      process.exitCode = agrees(summary) ? exitCodes.ok : exitCodes.differences;
    });
  } finally {
    if (file) await closeOutputFile(file);
  }
});

withExamples(program, [
  'reconcile gateway-report.csv --since 2026-11-27 --until 2026-11-28',
  'reconcile gateway-report.jsonl --format jsonl > differences.jsonl',
  'reconcile - --since 2026-11-27 < gateway-report.csv',
]);

await runProgram(program, 'reconcile');
