/**
 * `npx tsx bench/console/conflict-pages.ts`: what the console's Conflicts view waits for before
 * its first byte, at two table sizes (1,000 and 20,000 conflicts unless `--sizes`), on dynalite in
 * this process: the first page of 50 as the view now reads it (`conflictsPage`: one page of the
 * conflicts index and that page's transactions), and the whole-index read it replaced
 * (`listConflicts`, which `npm run query -- conflicts` still uses, as a full report should).
 * Prints each median and the large size's ratio to the small one's; docs/performance.md quotes it.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { conflictItem, transactionItem } from '../../lambda/storage/transaction-item.js';
import { median } from '../../scripts/gateway/statistics.js';
import { startDynalite } from '../../scripts/local/engine/dynalite.js';
import { ensureTable, localDynamoDbClient } from '../../scripts/local/engine/local-engine.js';
import { conflictsPage, listConflicts } from '../../scripts/table/reference-state.js';
import { putBatch } from '../../test/support/put-batch.js';
import { benchRecord } from '../tools/scale-data.js';

const sizesArgument = process.argv.indexOf('--sizes');
const sizes = (sizesArgument > 0 ? (process.argv[sizesArgument + 1] ?? '') : '1000,20000')
  .split(',')
  .map(Number);
const runs = 5;
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

/** `count` transactions, each with one conflicting delivery (another amount, fingerprint). */
async function seed(client: ReturnType<typeof localDynamoDbClient>, table: string, count: number) {
  const items = function* () {
    for (let i = 0; i < count; i += 1) {
      const record = benchRecord(i, count);
      yield transactionItem(record);
      yield conflictItem({
        ...record,
        transaction: {
          ...record.transaction,
          amount: String(Number(record.transaction.amount) + 1),
        },
        fingerprint: i.toString(16).padStart(64, '0'),
      });
    }
  };
  let batch: ReturnType<typeof transactionItem>[] = [];
  const pending: Promise<void>[] = [];
  for (const item of items()) {
    batch.push(item);
    if (batch.length < 25) continue;
    pending.push(putBatch(client, table, batch));
    batch = [];
    if (pending.length >= 6) await Promise.all(pending.splice(0));
  }
  if (batch.length > 0) pending.push(putBatch(client, table, batch));
  await Promise.all(pending);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

const engine = await startDynalite();
const client = localDynamoDbClient(engine.endpoint);
const results: { size: number; page: number; whole: number }[] = [];
try {
  for (const size of sizes) {
    const tableName = `bench-conflicts-${size}`;
    await ensureTable(client, tableName, { create: true });
    log(`seeding ${size} conflicts`);
    await seed(client, tableName, size);
    const context = { client, tableName };
    const first = await conflictsPage(context, { all: false, limit: 50 });
    if (first.conflicts.length !== 50) throw new Error(`first page held ${first.conflicts.length}`);
    const page = await timed(() => conflictsPage(context, { all: false, limit: 50 }));
    const whole = await timed(() => listConflicts(context, { all: false }));
    results.push({ size, page, whole });
  }
} finally {
  client.destroy();
  await engine.stop();
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
console.log(
  `Conflicts view, first page of 50 (median of ${runs}), dynalite, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, load ${loadavg()[0]?.toFixed(2)}, ${new Date().toISOString().slice(0, 10)}`,
);
console.log('| Conflicts | First page (conflictsPage) | Whole index (listConflicts) |');
console.log('| ---: | ---: | ---: |');
for (const { size, page, whole } of results) {
  console.log(`| ${size.toLocaleString('en')} | ${ms(page)} | ${ms(whole)} |`);
}
const [small, large] = [results[0], results.at(-1)];
if (small && large && small !== large) {
  console.log(
    `Ratio ${large.size.toLocaleString('en')} / ${small.size.toLocaleString('en')}: first page ${(large.page / small.page).toFixed(2)}×, whole index ${(large.whole / small.whole).toFixed(2)}×`,
  );
}
