/**
 * reconcile's matching and output at scale without an engine (child of tools-scale.ts with
 * `--in-memory`): the window's transactions are generated in this process as the table would
 * return them (by time and by key), the report is the CSV file given, and the output is written
 * exactly as `npm run reconcile` writes it. What it measures is what the command holds: the window, the
 * report's parsing, the findings' output.
 *
 *   tsx bench/tools/reconcile-in-memory.ts <report.csv> <window rows> <table|json>
 */
import { createReadStream } from 'node:fs';
import { moreLine } from '../../scripts/cli/output/bounded-table.js';
import { machineWriter } from '../../scripts/cli/output/machine-output.js';
import { readReport } from '../../scripts/operations/reconcile/gateway-report.js';
import {
  type RecordedTransaction,
  reconcile,
} from '../../scripts/operations/reconcile/reconcile.js';
import {
  FindingsTables,
  findingShape,
  summaryText,
} from '../../scripts/operations/reconcile/reconcile-output.js';
import { benchRecord } from './scale-data.js';

const [report = '', windowText = '0', format = 'table'] = process.argv.slice(2);
const windowRows = Number(windowText);

/** Transaction `i` of the window, as the table would return it. */
function recordedAt(i: number): RecordedTransaction {
  const { transaction: t, receivedAt } = benchRecord(i, windowRows);
  // Fresh strings, as the SDK's JSON parsing gives them, not the generator's shared ones.
  return JSON.parse(
    JSON.stringify({
      reference: t.reference,
      receivedAt,
      amount: t.amount,
      currency: t.currency,
      type: t.type,
      status: t.status,
    }),
  ) as RecordedTransaction;
}

async function* recorded(): AsyncGenerator<RecordedTransaction> {
  for (let i = 0; i < windowRows; i++) yield recordedAt(i);
}

/** By key, as the table would answer: a bench reference carries its index (`scale-00000012-…`). */
async function lookup(references: readonly string[]) {
  const found = new Map<string, RecordedTransaction>();
  for (const reference of references) {
    const index = /^scale-(\d{8})-/.exec(reference)?.[1];
    if (index !== undefined && Number(index) < windowRows) {
      found.set(reference, recordedAt(Number(index)));
    }
  }
  return found;
}

const tables = format === 'table' ? new FindingsTables() : undefined;
const writer =
  format === 'table' ? undefined : machineWriter('json', findingShape, process.stdout, {});
const summary = await reconcile(
  {
    report: readReport(createReadStream(report), 'csv'),
    recorded,
    lookup,
    conflicts: (async function* () {})(),
  },
  async (finding) => {
    tables?.add(finding);
    await writer?.write(finding);
  },
);
await writer?.end(summary);
if (tables) {
  const more = moreLine(tables.hidden, 'differences', 'json|jsonl|csv');
  process.stdout.write(`${tables.render()}${summaryText(summary)}${more}`);
}
