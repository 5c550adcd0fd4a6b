/**
 * `npm run bench:refusals`: seeds kept refusals of 64 KB (10,000 unless `--count`) into local
 * mode's engine (dynalite on LevelDB, in this process) and runs every command that reads them,
 * each in a fresh process: time to its first line, total time and peak RSS. The baseline is the
 * read they replaced (a whole-table scan into memory, sorted), in the same run. `--write` puts
 * the table in bench/results/refusal-reads.md; docs/performance.md quotes it.
 */
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { maxBodyBytes } from '../../lambda/http/read-body.js';
import { positiveInteger } from '../../scripts/cli/cli-errors.js';
import { commandProgram, runProgram } from '../../scripts/cli/command-program.js';
import { median } from '../../scripts/gateway/statistics.js';
import { startDynalite } from '../../scripts/local/engine/dynalite.js';
import { ensureTable, localDynamoDbClient } from '../../scripts/local/engine/local-engine.js';
import { localAwsEnvironment } from '../support/engines.js';
import { cleanEnvironment, repositoryRoot } from '../support/node24.js';
import { type CommandRun, runCommand } from './read-command.js';
import { seedRefusals } from './seed-refusals.js';

/** The targets every read path is held to (docs/performance.md). */
const targets = { peakRssMb: 300, firstLineMs: 2000 };
const mb = (bytes: number) => bytes / 1024 / 1024;
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

const program = commandProgram('bench:refusals', 'Measures every read of kept refusals at scale.', {
  ok: 'measured and printed',
})
  .option('--count <n>', 'kept refusals to seed', positiveInteger('--count'), 10_000)
  .option(
    '--body-bytes <n>',
    'bytes of each refused body (smaller, to seed a million in minutes)',
    positiveInteger('--body-bytes'),
    maxBodyBytes,
  )
  .option(
    '--runs <n>',
    'runs of each command (median time, highest RSS)',
    positiveInteger('--runs'),
    3,
  )
  .option('--no-baseline', 'skip the whole-table scan the reads replaced')
  .option(
    '--baseline-runs <n>',
    'runs of each baseline (minutes each)',
    positiveInteger('--baseline-runs'),
    1,
  )
  .option('--write', 'write bench/results/refusal-reads.md', false)
  .action(async (options) => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-refusals-'));
    const engine = await startDynalite(join(dir, 'engine'));
    const client = localDynamoDbClient(engine.endpoint);
    // Answers resubmit's delivery: what is measured is the reading, not a receiver.
    const receiver = createServer((_request, response) => response.writeHead(204).end());
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const port = (receiver.address() as { port: number }).port;
    try {
      const table = 'bench-refusals';
      await ensureTable(client, table, { create: true, table: 'refusals' });
      log(`seeding ${options.count} refusals of ${options.bodyBytes} bytes`);
      const started = Date.now();
      const { newest, oldest } = await seedRefusals(
        client,
        table,
        options.count,
        (done) => log(`  ${done} seeded`),
        options.bodyBytes,
      );
      const seconds = (Date.now() - started) / 1000;
      log(`seeded in ${seconds.toFixed(1)} s`);
      const keyFile = join(dir, 'key');
      await writeFile(keyFile, 'bench-key\n', { mode: 0o600 });
      const env = cleanEnvironment({ ...localAwsEnvironment, REFUSALS_TABLE_NAME: table });
      const at = ['--endpoint', engine.endpoint];
      const prefix = newest.digest.slice(0, 16);
      const paths: [string, string, string[]][] = [
        // Loading Node, tsx and each command's modules, reading nothing: what its rows include.
        ['floor: query refused --help', 'scripts/commands/query-command.ts', ['refused', '--help']],
        ['floor: verify --help', 'scripts/commands/verify-command.ts', ['--help']],
        ['floor: resubmit --help', 'scripts/commands/resubmit-command.ts', ['--help']],
        ['query refused', 'scripts/commands/query-command.ts', ['refused', ...at]],
        [
          'query refused --format json',
          'scripts/commands/query-command.ts',
          ['refused', '--format', 'json', ...at],
        ],
        // The oldest: the filter reads the whole index before its one line.
        [
          'query refused --reference (the oldest)',
          'scripts/commands/query-command.ts',
          ['refused', '--reference', oldest.reference ?? '', ...at],
        ],
        [
          'verify --refusal <16 hex>',
          'scripts/commands/verify-command.ts',
          ['--refusal', prefix, '--key-file', keyFile, ...at],
        ],
        [
          'resubmit <16 hex>',
          'scripts/commands/resubmit-command.ts',
          [prefix, '--url', `http://127.0.0.1:${port}/callback`, '--key', 'bench-key', ...at],
        ],
      ];
      const baseline = (mode: string, extra: string[] = []): [string, string, string[]] => [
        `baseline: scan + sort, ${mode}`,
        'bench/refusals/scan-refusals.ts',
        [engine.endpoint, table, mode, ...extra],
      ];
      const baselines = options.baseline
        ? [baseline('table'), baseline('json'), baseline('prefix', [prefix])]
        : [];
      const rows: Row[] = [];
      const plan = [
        ...paths.map((path) => [...path, options.runs] as const),
        ...baselines.map((path) => [...path, options.baselineRuns] as const),
      ];
      for (const [name, script, args, times] of plan) {
        log(`${name}: ${times} runs`);
        const runs: CommandRun[] = [];
        for (let run = 0; run < times; run++) runs.push(await runCommand({ script, args, env }));
        rows.push(summarize(name, runs));
      }
      const text = report(rows, options, seconds);
      process.stdout.write(`\n${text}`);
      if (options.write) {
        const out = join(repositoryRoot, 'bench', 'results');
        await mkdir(out, { recursive: true });
        await writeFile(join(out, 'refusal-reads.md'), `# Reading kept refusals\n\n${text}`);
        log('written: bench/results/refusal-reads.md');
      }
    } finally {
      receiver.close();
      client.destroy();
      await engine.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

interface Row {
  readonly name: string;
  readonly firstLineMs: number;
  readonly totalMs: number;
  readonly peakRssMb: number;
  readonly outputMb: number;
  readonly exitCodes: string;
}

function summarize(name: string, runs: readonly CommandRun[]): Row {
  return {
    name,
    firstLineMs: median(runs.map((run) => run.firstLineMs)),
    totalMs: median(runs.map((run) => run.totalMs)),
    peakRssMb: Math.max(...runs.map((run) => mb(run.peakRssBytes))),
    outputMb: median(runs.map((run) => mb(run.stdoutBytes))),
    exitCodes: [...new Set(runs.map((run) => String(run.exitCode)))].join('/'),
  };
}

function report(
  rows: readonly Row[],
  {
    count,
    bodyBytes,
    runs,
    baselineRuns,
  }: Record<'count' | 'bodyBytes' | 'runs' | 'baselineRuns', number>,
  seededSeconds: number,
): string {
  const fixed = (value: number, digits = 0) =>
    Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits }) : '–';
  const met = (row: Row) =>
    row.name.startsWith('baseline') || row.name.startsWith('floor')
      ? ''
      : row.peakRssMb <= targets.peakRssMb && row.firstLineMs <= targets.firstLineMs
        ? 'met'
        : 'MISSED';
  const lines = [
    `${count.toLocaleString('en-US')} kept refusals of ${bodyBytes === maxBodyBytes ? '64 KB' : `${bodyBytes} bytes`} in dynalite (LevelDB), seeded in ${fixed(seededSeconds)} s; ${runs} runs of ` +
      `each command (${baselineRuns} of each baseline): median times, highest peak RSS. Targets: ` +
      `first line ≤ ${targets.firstLineMs} ms, peak RSS ≤ ${targets.peakRssMb} MB. A floor is the ` +
      'command started with --help: Node, tsx and its modules loaded, nothing read.',
    '',
    '| Command | First line (ms) | Total (ms) | Peak RSS (MB) | Output (MB) | Exit | Target |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${fixed(row.firstLineMs)} | ${fixed(row.totalMs)} | ${fixed(row.peakRssMb)} | ` +
        `${fixed(row.outputMb, 1)} | ${row.exitCodes} | ${met(row)} |`,
    ),
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ` +
      `${fixed(mb(totalmem()) / 1024, 1)} GB, Node ${process.versions.node}, ` +
      `load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(' / ')} at the end.`,
    '',
  ];
  return lines.join('\n');
}

await runProgram(program, 'bench:refusals');
