/**
 * `npm run bench` (and `npm run bench:smoke`, or BENCH_SMOKE=1): measures ours and the baseline
 * in one run and prints the table. It writes latest.md and latest.json only when asked: `--write`
 * into bench/results (the published figures), `--out <dir>` anywhere else. `--from <latest.json>`
 * re-renders a saved run. Figures are printed, never judged: nothing here fails because a
 * machine is slow.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commandProgram, runProgram } from '../scripts/shared/command-program.js';
import { type BenchmarkResults, runBenchmark } from './benchmark.js';
import { repositoryRoot } from './cold-start/bundle.js';
import { markdown, writeResults } from './report/write-results.js';
import { fullSettings, smokeSettings } from './settings.js';

const resultsDir = join(repositoryRoot, 'bench', 'results');

const program = commandProgram('bench', 'Measures ours against the baseline and prints the table.')
  .option('--smoke', 'every step once, small: the figures mean nothing (CI)', false)
  .option('--write', `write latest.md and latest.json into ${join('bench', 'results')}`, false)
  .option('--out <dir>', 'write latest.md and latest.json into this folder instead')
  .option('--from <file>', 're-render a saved latest.json without measuring')
  .action(bench);

async function bench(options: {
  smoke: boolean;
  write: boolean;
  out?: string;
  from?: string;
}): Promise<void> {
  const smoke = options.smoke || process.env.BENCH_SMOKE === '1';
  // The in-process measurements log and emit metrics as the deployed function does (the stack
  // sets INFO), whatever the caller's shell or test runner asked Powertools for.
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  delete process.env.POWERTOOLS_DEV;

  const results: BenchmarkResults = options.from
    ? (JSON.parse(await readFile(options.from, 'utf8')) as BenchmarkResults)
    : await runBenchmark({
        mode: smoke ? 'smoke' : 'full',
        settings: smoke ? smokeSettings : fullSettings,
        workDir: join(resultsDir, 'tmp'),
        log: (message) => process.stderr.write(`bench: ${message}\n`),
      });
  const outDir = options.out ?? (options.write ? resultsDir : undefined);
  if (!outDir) {
    process.stdout.write(`\n${markdown(results)}\nNot written: pass --write to publish.\n`);
    return;
  }
  const files = await writeResults(results, outDir);
  process.stdout.write(`\n${markdown(results)}\nWritten: ${files.join(', ')}\n`);
}

await runProgram(program, 'bench');
