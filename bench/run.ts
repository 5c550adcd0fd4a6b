/**
 * `npm run bench` (and `npm run bench:smoke`, or BENCH_SMOKE=1): measures ours and the baseline
 * in one run, prints the table and writes bench/results/latest.md, latest.json and
 * benchmark.svg. The smoke run writes under bench/results/tmp/smoke (git-ignored) instead, so it
 * never overwrites published figures; `--from <latest.json>` re-renders a saved run. Figures
 * are printed, never judged: nothing here fails because a machine is slow.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchmarkResults, runBenchmark } from './benchmark.js';
import { repositoryRoot } from './cold-start/bundle.js';
import { writeResults } from './report/write-results.js';
import { fullSettings, smokeSettings } from './settings.js';

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    out: { type: 'string' },
    // Re-renders the table and chart from a saved latest.json without measuring anything.
    from: { type: 'string' },
  },
});
const smoke = values.smoke || process.env.BENCH_SMOKE === '1';

// The in-process measurements log and emit metrics as the deployed function does (the stack sets
// INFO), whatever the caller's shell or test runner asked Powertools for.
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
delete process.env.POWERTOOLS_METRICS_DISABLED;
delete process.env.POWERTOOLS_DEV;
const resultsDir = join(repositoryRoot, 'bench', 'results');
const outDir = values.out ?? (smoke ? join(resultsDir, 'tmp', 'smoke') : resultsDir);

const results: BenchmarkResults = values.from
  ? (JSON.parse(await readFile(values.from, 'utf8')) as BenchmarkResults)
  : await runBenchmark({
      mode: smoke ? 'smoke' : 'full',
      settings: smoke ? smokeSettings : fullSettings,
      workDir: join(resultsDir, 'tmp'),
      log: (message) => process.stderr.write(`bench: ${message}\n`),
    });
const written = await writeResults(results, outDir);
process.stdout.write(`\n${written.markdown}\nWritten: ${written.files.join(', ')}\n`);
