/**
 * `npm run bench:tools`: the operator tools at scale against a local engine. For each size it
 * seeds that many transactions into one day, then times reconcile in table and in JSON form
 * (same report, same table, one after the other), the listing commands, replay of the day and
 * redrive of as many dead letters to a counting sink, each a fresh process under GNU time: wall
 * seconds and peak RSS. Figures are printed, never judged.
 *
 *   npm run bench:tools -- --rows 100000,1000000 --engine dynalite
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Option } from '@commander-js/extra-typings';
import { commandProgram, runProgram } from '../../scripts/cli/command-program.js';
import { startDynamoDbLocal } from '../../scripts/dev/dynamodb-local/start.js';
import { startDynalite } from '../../scripts/local/engine/dynalite.js';
import { ensureTable, localDynamoDbClient } from '../../scripts/local/engine/local-engine.js';
import { localAwsEnvironment } from '../support/engines.js';
import { cleanEnvironment } from '../support/node24.js';
import { inScratchDir } from '../support/scratch-dir.js';
import { measureEvents } from './event-commands.js';
import { benchDay, reportLines, seedTransactions, writeLines } from './scale-data.js';
import { type CommandFigures, timedCommand } from './timed-command.js';
import { publish, type Row, type Timed } from './tools-report.js';

const log = (message: string) =>
  process.stderr.write(`bench:tools ${new Date().toISOString().slice(11, 19)} ${message}\n`);

const program = commandProgram('bench:tools', 'Times the operator tools at scale (local engine).', {
  ok: 'measured (figures are printed, never judged)',
})
  .option('--rows <list>', 'sizes: transactions seeded and report rows', '100000')
  .addOption(
    new Option('--engine <engine>', 'the local engine')
      .choices(['dynalite', 'dynamodb-local'])
      .default('dynalite'),
  )
  .option('--seeded <n>', 'transactions recorded in the window (default: as many as --rows)')
  .option('--skip-listing', 'no listing commands', false)
  .option('--skip-events', 'no replay and redrive', false)
  .option('--skip-all-differ', 'only the report that mostly agrees', false)
  .option('--skip-mostly-agree', 'only the report where all differ', false)
  .option(
    '--in-memory',
    "no engine: reconcile's matching and output with the window generated in process",
    false,
  )
  .option('--repeat <n>', 'reconcile runs per format, alternating table and json (medians)', '1')
  .option('--json <file>', 'also write the figures as JSON')
  .option('--serve', 'seed --rows (one size) into the engine, print it and keep it running', false)
  .option('--endpoint <url>', 'measure against an engine --serve seeded (with --table)')
  .option('--table <name>', 'the table --serve seeded (with --endpoint)')
  .action(async (options) => {
    const sizes = options.rows.split(',').map((size) => Number(size.replace(/_/g, '')));
    // Taken before anything runs: the load the figures were measured under.
    const load = loadavg()[0]?.toFixed(1);
    if (options.endpoint && options.table) {
      // Seeding a million takes 8 to 34 minutes, with the load: do it once (--serve),
      // measure as often as needed.
      const { endpoint } = options;
      const client = localDynamoDbClient(endpoint);
      const served = { ...options, tableName: options.table };
      const rows = await measureEach(sizes, (size, dir) =>
        measureSize(size, client, endpoint, dir, served),
      ).finally(() => client.destroy());
      await publish(rows, `${options.engine} (seeded by --serve)`, load, options.json);
      return;
    }
    if (options.inMemory) {
      const repeat = Number(options.repeat);
      const rows = await measureEach(sizes, (size, dir) => measureInMemory(size, dir, repeat));
      await publish(rows, 'no engine', load, options.json);
      return;
    }
    const engine =
      options.engine === 'dynalite' ? await startDynalite() : await startDynamoDbLocal({ log });
    const client = localDynamoDbClient(engine.endpoint);
    if (options.serve) {
      const tableName = await seed(client, sizes[0] ?? 0);
      process.stdout.write(`--endpoint ${engine.endpoint} --table ${tableName}\n`);
      await new Promise((done) => process.once('SIGINT', done).once('SIGTERM', done));
      client.destroy();
      await engine.stop();
      return;
    }
    const rows = await measureEach(sizes, (size, dir) =>
      measureSize(size, client, engine.endpoint, dir, options),
    ).finally(async () => {
      client.destroy();
      await engine.stop();
    });
    await publish(rows, options.engine, load, options.json);
  });

/** Each size's rows, one size after the other, with a scratch folder for the reports. */
function measureEach(
  sizes: readonly number[],
  measure: (size: number, dir: string) => Promise<Row[]>,
): Promise<Row[]> {
  return inScratchDir('bench-tools-', async (dir) => {
    const rows: Row[] = [];
    for (const size of sizes) rows.push(...(await measure(size, dir)));
    return rows;
  });
}

let tableSequence = 0;

/** A new table holding `count` transactions in the bench's day; its name. */
async function seed(client: ReturnType<typeof localDynamoDbClient>, count: number) {
  const tableName = `bench-tools-${process.pid}-${++tableSequence}`;
  await ensureTable(client, tableName, { create: true });
  const started = Date.now();
  await seedTransactions(client, tableName, count, (n) => log(`seeded ${n} of ${count}`));
  log(`seeded ${count} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return tableName;
}

async function measureSize(
  size: number,
  client: ReturnType<typeof localDynamoDbClient>,
  endpoint: string,
  dir: string,
  options: {
    skipListing: boolean;
    skipEvents: boolean;
    skipAllDiffer: boolean;
    skipMostlyAgree: boolean;
    repeat: string;
    seeded?: string;
    tableName?: string;
  },
): Promise<Row[]> {
  const seeded = options.seeded === undefined ? size : Number(options.seeded);
  const tableName = options.tableName ?? (await seed(client, seeded));

  // "mostly agree": the recorded day as the report, 1% other amounts, 1% more never recorded.
  // "all differ": as many rows, none recorded: every row missing (looked up by key, a hundred
  // at a time), every recorded transaction unexpected: the case whose table used to crash.
  const reports: Record<string, string> = {};
  if (seeded > 0 && !options.skipMostlyAgree) {
    reports['mostly agree'] = await writeReport(
      join(dir, `agree-${size}.csv`),
      seeded,
      seeded / 100,
    );
  }
  if (!options.skipAllDiffer) {
    reports['all differ'] = await writeReport(join(dir, `differ-${size}.csv`), 0, size);
  }
  const env = cleanEnvironment({
    ...localAwsEnvironment,
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    TABLE_NAME: tableName,
  });
  const window = ['--since', benchDay.since, '--until', benchDay.until];
  const rows: Row[] = [];
  const label = (what: string) => `${what} (${seeded.toLocaleString('en')} recorded)`;
  const timed: Timed = async (what, format, script, args, more = {}) => {
    log(`${size} ${what} ${format}…`);
    const figures = await timedCommand({ script, args, env: { ...env, ...more } });
    log(
      `${size} ${what} ${format}: ${figures.seconds} s (CPU ${figures.cpuSeconds.toFixed(1)} s), ${figures.peakRssMb} MB, exit ${figures.exitCode}`,
    );
    return figures;
  };
  const repeat = Number(options.repeat);
  for (const [name, report] of Object.entries(reports)) {
    const runs: Record<string, CommandFigures[]> = { table: [], json: [] };
    // ABBA order (table, json, json, table, …): drift in the machine's load hits both alike.
    for (let i = 0; i < repeat; i++) {
      for (const format of i % 2 === 0 ? ['table', 'json'] : ['json', 'table']) {
        const args = [report, ...window, '--format', format];
        const what = `reconcile, ${name}`;
        runs[format]?.push(
          await timed(what, format, 'scripts/commands/reconcile-command.ts', args),
        );
      }
    }
    for (const format of ['table', 'json']) {
      const figures = median(runs[format] ?? []);
      rows.push({ rows: size, case: label(`reconcile, ${name}`), format, ...figures });
    }
  }
  if (!options.skipListing && seeded > 0) {
    const query = async (what: string, format: string, args: string[]) => {
      const figures = await timed(what, format, 'scripts/commands/query-command.ts', args);
      rows.push({ rows: seeded, case: label(what), format, ...figures });
    };
    const day = ['--since', benchDay.since, '--until', benchDay.until];
    await query('query list', 'table', ['list', ...day, '--limit', String(seeded)]);
    await query('query list', 'json', [
      'list',
      ...day,
      '--limit',
      String(seeded),
      '--format',
      'json',
    ]);
    await query('query export', 'jsonl', ['export', ...day, '--format', 'jsonl']);
    await query('query summary', 'table', ['summary', ...day]);
  }
  if (!options.skipEvents && seeded > 0) {
    rows.push(...(await measureEvents(seeded, dir, timed)));
  }
  return rows;
}

/**
 * The window and the report both `size` rows (1% other amounts, 1% more never recorded), held
 * and matched in one process without an engine: the command's own memory and time.
 */
async function measureInMemory(size: number, dir: string, repeat: number): Promise<Row[]> {
  const report = await writeReport(join(dir, `agree-${size}.csv`), size, size / 100);
  // Unmeasured: the first run of a file pays tsx's compile, cached for the runs after it.
  const warm = await writeReport(join(dir, 'warm-up.csv'), 10, 1);
  await timedCommand({
    script: 'bench/tools/reconcile-in-memory.ts',
    args: [warm, '10', 'table'],
    env: cleanEnvironment({}),
  });
  const runs: Record<string, CommandFigures[]> = { table: [], json: [] };
  for (let i = 0; i < repeat; i++) {
    for (const format of i % 2 === 0 ? ['table', 'json'] : ['json', 'table']) {
      log(`${size} in memory ${format}…`);
      const figures = await timedCommand({
        script: 'bench/tools/reconcile-in-memory.ts',
        args: [report, String(size), format],
        env: cleanEnvironment({}),
      });
      log(
        `${size} in memory ${format}: ${figures.seconds} s (CPU ${figures.cpuSeconds.toFixed(1)} s), ${figures.peakRssMb} MB`,
      );
      runs[format]?.push(figures);
    }
  }
  const what = `reconcile matching, mostly agree (${size.toLocaleString('en')} in the window, no engine)`;
  return ['table', 'json'].map((format) => ({
    rows: size,
    case: what,
    format,
    ...median(runs[format] ?? []),
  }));
}

/** The run of median wall time (peak RSS: the largest of the runs). */
function median(runs: readonly CommandFigures[]): CommandFigures {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)] as CommandFigures;
  return { ...middle, peakRssMb: Math.max(...runs.map((run) => run.peakRssMb)) };
}

function writeReport(path: string, recorded: number, missing: number): Promise<string> {
  return writeLines(path, reportLines(recorded, missing));
}

await runProgram(program, 'bench:tools');
