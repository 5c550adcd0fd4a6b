/**
 * `npm run bench:reconcile`: peak memory of reconcile as the report grows and as the window grows,
 * each run in a fresh process so its peak RSS is its own. The first run is the baseline; the
 * others print their ratio to it. The table side is in memory (an async iterable of recorded
 * transactions and a lookup that finds nothing outside the window), so the figures are those of
 * the matching and the report parsing, not of a DynamoDB engine.
 *
 *   npm run bench:reconcile              report 10k and 1M rows, window 10k and 100k
 *   npm run bench:reconcile -- --rows 200000
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readReport } from '../../scripts/ops/gateway-report.js';
import { reconcile } from '../../scripts/ops/reconciliation.js';
import type { RecordedTransaction } from '../../scripts/ops/recorded-transactions.js';

interface Run {
  readonly reportRows: number;
  readonly windowRows: number;
}

interface Measured extends Run {
  readonly peakRssMb: number;
  readonly seconds: number;
  readonly findings: number;
}

/** Report row i: reference `r-i`, an amount with a trailing zero every tenth row. */
async function writeReport(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('id,status,reference,amount,currency,type\n');
  for (let i = 0; i < rows; i++) {
    await write(`${i},Confirm,r-${i},${i % 10 === 0 ? `${i}.50` : i},TRY,Deposit\n`);
  }
  out.end();
  await once(out, 'finish');
}

async function* window(rows: number): AsyncGenerator<RecordedTransaction> {
  for (let i = 0; i < rows; i++) {
    yield {
      reference: `r-${i}`,
      amount: i % 10 === 0 ? `${i}.5` : String(i),
      currency: 'TRY',
      type: 'Deposit',
      status: 'Confirm',
      receivedAt: '2026-03-14T10:00:00.000Z',
    };
  }
}

/** The child: one reconcile, findings counted and dropped as a JSON output would stream them. */
async function measure(reportPath: string, run: Run): Promise<Measured> {
  const started = performance.now();
  const findings = reconcile({
    report: readReport(createReadStream(reportPath), 'csv'),
    recorded: window(run.windowRows),
    lookup: async () => new Map(),
    conflicts: (async function* () {})(),
  });
  let count = 0;
  for (let step = await findings.next(); !step.done; step = await findings.next()) count += 1;
  return {
    ...run,
    findings: count,
    seconds: (performance.now() - started) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

async function main(): Promise<void> {
  const [mode, reportPath, reportRows, windowRows] = process.argv.slice(2);
  if (mode === '--child') {
    const result = await measure(reportPath as string, {
      reportRows: Number(reportRows),
      windowRows: Number(windowRows),
    });
    process.stdout.write(JSON.stringify(result));
    return;
  }
  const rowsOption = process.argv.indexOf('--rows');
  const large = rowsOption === -1 ? 1_000_000 : Number(process.argv[rowsOption + 1]);
  const small = 10_000;
  const runs: Run[] = [
    { reportRows: small, windowRows: small },
    { reportRows: large, windowRows: small },
    { reportRows: small, windowRows: small * 30 },
  ];
  const dir = await mkdtemp(join(tmpdir(), 'bench-reconcile-'));
  try {
    const results: Measured[] = [];
    for (const run of runs) {
      const path = join(dir, `report-${run.reportRows}.csv`);
      await writeReport(path, run.reportRows);
      const output = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          '--child',
          path,
          String(run.reportRows),
          String(run.windowRows),
        ],
        { encoding: 'utf8', maxBuffer: 1024 * 1024 },
      );
      results.push(JSON.parse(output) as Measured);
    }
    const base = results[0] as Measured;
    process.stdout.write(
      'report rows  window rows  findings  seconds  peak RSS MB  RSS vs first\n' +
        results
          .map(
            (r) =>
              `${String(r.reportRows).padStart(11)}  ${String(r.windowRows).padStart(11)}  ` +
              `${String(r.findings).padStart(8)}  ${r.seconds.toFixed(1).padStart(7)}  ` +
              `${r.peakRssMb.toFixed(0).padStart(11)}  ${(r.peakRssMb / base.peakRssMb).toFixed(2).padStart(11)}x`,
          )
          .join('\n') +
        '\n',
    );
    const perEntry =
      (((results[2] as Measured).peakRssMb - base.peakRssMb) * 1024 * 1024) /
      ((results[2] as Measured).windowRows - base.windowRows);
    process.stdout.write(
      `window cost: about ${perEntry.toFixed(0)} bytes per recorded reference held\n`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
