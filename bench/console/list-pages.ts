/**
 * `npm run bench:lists`: what a page of each list costs at two table sizes (10,000 and 1,000,000
 * transactions unless `--sizes`), on dynalite in this process: the first page, and a page after
 * a cursor (`--page`, the second unless told), each read as the console reads it
 * (list-readers.ts). A hundredth of the transactions carry a conflict, a hundredth are one
 * user's, and there is one kept refusal per hundred (list-data.ts). Prints each page's median
 * time (of `--runs`, the sizes alternating run by run), its DynamoDB requests and the items the
 * engine read for it, and the largest size's ratio to the smallest's; docs/performance.md quotes
 * it, bench/results/list-pages.md keeps its output.
 *
 *   npm run bench:lists -- --data /tmp/bench-lists   # seeds once into that folder, then reuses it
 *   npm run bench:lists -- --smoke                   # small, one run: the script works
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { commandProgram, runProgram } from '../../scripts/cli/command-program.js';
import { median } from '../../scripts/gateway/statistics.js';
import { startDynalite } from '../../scripts/local/engine/dynalite.js';
import { localDynamoDbClient } from '../../scripts/local/engine/local-engine.js';
import { recordRequests } from '../../test/support/request-counter.js';
import { type ListTables, listTables } from './list-data.js';
import { consoleView, type ListContext, type ListReader, lists, pageSize } from './list-readers.js';

/** What the command line chose; empty after `--help` or a usage error, which runProgram told. */
const chosen: {
  options?: { sizes: string; runs: string; page: string; data?: string; smoke: boolean };
} = {};
await runProgram(
  commandProgram('bench:lists', 'What a page of each console list costs at two table sizes.', {
    ok: 'measured and printed (figures are never judged)',
  })
    .option('--sizes <counts>', 'transactions in each table, comma-separated', '10000,1000000')
    .option('--runs <n>', 'timed runs of each page (the median is shown)', '7')
    .option('--page <n>', 'which page after a cursor is timed', '2')
    .option('--data <folder>', "keep dynalite's data here: each size seeded once, then reused")
    .option('--smoke', 'small sizes, one run: the script works', false)
    .action((options) => {
      chosen.options = options;
    }),
  'bench:lists',
);
if (chosen.options === undefined) process.exit();
const options = chosen.options;
const sizes = (options.smoke ? '300,600' : options.sizes).split(',').map(Number);
const runs = options.smoke ? 1 : Number(options.runs);
const pageNumber = Number(options.page);
if (sizes.some((size) => !Number.isInteger(size) || size < 1) || !(pageNumber >= 2)) {
  throw new Error('--sizes takes counts such as 10000,1000000; --page, 2 or more');
}
const log = (message: string) =>
  process.stderr.write(`bench:lists ${new Date().toISOString().slice(11, 19)} ${message}\n`);

/** One page of one list at one size: its rows, requests and times. */
interface Measured {
  rows: number;
  requests: string[];
  /** Items the engine read for the page: each query's and scan's `ScannedCount`, each batch's. */
  itemsRead: number;
  times: number[];
}

/**
 * Counts the items every answer to `client` carries from now on: a query's or scan's
 * `ScannedCount` (before any filter), a BatchGetItem's responses. `stop()` removes it.
 */
function countItemsRead(client: ReturnType<typeof localDynamoDbClient>) {
  let items = 0;
  const name = 'bench-lists-items-read';
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const output = result.output as {
        ScannedCount?: number;
        Responses?: Record<string, readonly unknown[]>;
      };
      items += output.ScannedCount ?? 0;
      for (const found of Object.values(output.Responses ?? {})) items += found.length;
      return result;
    },
    { step: 'initialize', name },
  );
  return { items: () => items, stop: () => client.middlewareStack.remove(name) };
}

/** The page `which` of `reader`: how to read it again, or none when the list has no such page. */
async function pageReader(
  reader: ListReader,
  context: ListContext,
  which: 'first' | 'after',
): Promise<(() => Promise<{ rows: number }>) | undefined> {
  if (which === 'first') return () => reader.firstPage(context);
  const { nextPage } = reader;
  if (nextPage === undefined) return undefined;
  let { next } = await reader.firstPage(context);
  for (let page = 2; page < pageNumber && next !== undefined; page += 1) {
    ({ next } = await nextPage(context, next));
  }
  const cursor = next;
  return cursor === undefined ? undefined : () => nextPage(context, cursor);
}

const folder = options.data ?? (await mkdtemp(join(tmpdir(), 'bench-lists-')));
const engine = await startDynalite(folder);
const client = localDynamoDbClient(engine.endpoint);
const results = new Map<string, Map<number, Measured>>();
const tables: ListTables[] = [];
let loadBefore = '';
try {
  for (const size of sizes) tables.push(await listTables(client, size, options.data, log));
  const contexts = tables.map((table): ListContext => {
    const transactions = { client, tableName: table.tableName };
    const refusals = { client, tableName: table.refusalsTableName };
    return { transactions, refusals, view: consoleView(transactions, refusals) };
  });
  loadBefore = loadavg()[0]?.toFixed(1) ?? '';
  for (const reader of lists) {
    for (const which of ['first', 'after'] as const) {
      const key = `${reader.name}\t${which}`;
      const measured = new Map<number, Measured>();
      const reads = await Promise.all(
        contexts.map((context) => pageReader(reader, context, which)),
      );
      if (reads.every((read) => read === undefined)) continue;
      // Unmeasured: the read once more, its requests counted; then the runs, sizes alternating.
      for (const [index, read] of reads.entries()) {
        if (read === undefined) continue;
        const [counter, reads] = [recordRequests(client), countItemsRead(client)];
        const { rows } = await read();
        counter.stop();
        reads.stop();
        const requests = counter.requests();
        measured.set(index, { rows, requests, itemsRead: reads.items(), times: [] });
      }
      for (let run = 0; run < runs; run += 1) {
        const order = [...reads.keys()];
        if (run % 2 === 1) order.reverse();
        for (const index of order) {
          const read = reads[index];
          if (read === undefined) continue;
          const started = performance.now();
          await read();
          measured.get(index)?.times.push(performance.now() - started);
        }
      }
      results.set(key, measured);
      const shown = [...measured].map(
        ([index, m]) =>
          `${sizes[index]}: ${median(m.times).toFixed(1)} ms, ${m.rows} rows, ${requestsText(m.requests)}, ${m.itemsRead} items read`,
      );
      log(`${reader.name}, ${which} page: ${shown.join('; ')}`);
    }
  }
} finally {
  client.destroy();
  await engine.stop();
  if (options.data === undefined) await rm(folder, { recursive: true, force: true });
}

/** `17 (16 Query, 1 BatchGetItem)`. */
function requestsText(requests: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of requests) counts.set(name, (counts.get(name) ?? 0) + 1);
  return `${requests.length} (${[...counts].map(([name, n]) => `${n} ${name}`).join(', ')})`;
}

/** 2nd, 3rd, 10th, 21st. */
function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

const count = (n: number) => n.toLocaleString('en');
const ms = (value: number) => `${value.toFixed(1)} ms`;
const [first, last] = [0, sizes.length - 1];
console.log(
  `List pages of ${pageSize} (median of ${runs}, sizes alternating), dynalite in process, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, load ${loadBefore} before the runs and ${loadavg()[0]?.toFixed(1)} after, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
);
for (const table of tables) {
  console.log(
    `${count(table.count)} transactions (${count(table.conflicts)} with a conflict, ${count(table.refusals)} kept refusals): seeded in ${table.seededSeconds.toFixed(0)} s${table.reused ? ' by an earlier run' : ''}`,
  );
}
console.log('');
console.log(
  `| List | Page | ${sizes.map((size) => `${count(size)}`).join(' | ')} | ${sizes.length > 1 ? `${count(sizes[last] ?? 0)} / ${count(sizes[first] ?? 0)} | ` : ''}Rows | Requests | Items read |`,
);
console.log(
  `| --- | --- | ${sizes.map(() => '---: | ').join('')}${sizes.length > 1 ? '---: | ' : ''}---: | ---: | ---: |`,
);
for (const [key, measured] of results) {
  const [name, which] = key.split('\t');
  const page = which === 'first' ? 'first' : `${ordinal(pageNumber)}, after a cursor`;
  const medians = sizes.map((_, index) => {
    const times = measured.get(index)?.times;
    return times && times.length > 0 ? median(times) : undefined;
  });
  const [small, large] = [medians[first], medians[last]];
  const ratio =
    sizes.length > 1 ? `${small && large ? `${(large / small).toFixed(2)}×` : ''} | ` : '';
  const each = (figure: (m: Measured) => string) =>
    sizes.map((_, index) => {
      const m = measured.get(index);
      return m ? figure(m) : '–';
    });
  const same = (texts: string[]) =>
    new Set(texts).size === 1 ? (texts[0] ?? '') : texts.join(' / ');
  console.log(
    `| ${name} | ${page} | ${medians.map((m) => (m === undefined ? '–' : ms(m))).join(' | ')} | ${ratio}${same(each((m) => count(m.rows)))} | ${same(each((m) => requestsText(m.requests)))} | ${same(each((m) => count(m.itemsRead)))} |`,
  );
}
console.log('');
console.log(
  `Rows, requests and items read: one figure when every size had the same; else each size's, smallest first. Command: npx tsx bench/console/list-pages.ts ${process.argv.slice(2).join(' ')}`.trimEnd(),
);
