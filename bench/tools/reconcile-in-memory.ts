/**
 * reconcile's matching and output at scale without an engine (child of tools-scale.ts with
 * `--in-memory`): the window's transactions are generated in this process as the table would
 * return them, the report is the CSV file given, and the output is written exactly as
 * `npm run reconcile` writes it. What it measures is what the command holds: the window, the
 * report's parsing, the findings' output.
 *
 *   tsx bench/tools/reconcile-in-memory.ts <report.csv> <window rows> <table|json>
 */
import { createReadStream } from 'node:fs';
import { moreLine } from '../../scripts/cli/output/bounded-table.js';
import { machineWriter } from '../../scripts/cli/output/machine-output.js';
import { readReport } from '../../scripts/reconcile/gateway-report.js';
import { type RecordedTransaction, reconcile } from '../../scripts/reconcile/reconcile.js';
import {
  FindingsTables,
  findingShape,
  summaryText,
} from '../../scripts/reconcile/reconcile-output.js';
import { benchRecord } from './scale-data.js';

const [report = '', windowText = '0', format = 'table'] = process.argv.slice(2);
const windowRows = Number(windowText);

async function* recorded(): AsyncGenerator<RecordedTransaction> {
  for (let i = 0; i < windowRows; i++) {
    const { transaction: t, receivedAt } = benchRecord(i, windowRows);
    // Fresh strings, as the SDK's JSON parsing gives them, not the generator's shared ones.
    yield JSON.parse(
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
}

const tables = format === 'table' ? new FindingsTables() : undefined;
const writer =
  format === 'table' ? undefined : machineWriter('json', findingShape, process.stdout, {});
const summary = await reconcile(
  {
    report: readReport(createReadStream(report), 'csv'),
    recorded: recorded(),
    lookup: async () => new Map(),
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
