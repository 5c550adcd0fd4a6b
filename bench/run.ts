/**
 * `npm run bench` (`--smoke`, or BENCH_SMOKE=1, for CI): ours and the baseline measured in one
 * run, the table printed. Written only when asked: `--write` into bench/results (the published
 * figures), `--out <dir>` anywhere else; `--from <latest.json>` re-renders a saved run. Figures
 * are printed, never judged: nothing here fails because a machine is slow.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { commandProgram, runProgram } from '../scripts/cli/command-program.js';
import { localDynamoDbClient } from '../scripts/local/engine/local-engine.js';
import { coldStartRows, measureColdStart } from './measure/cold-start.js';
import { endToEndRows, measureEndToEnd } from './measure/end-to-end.js';
import { type CpuResult, cpuCases, cpuRows, measureHandlerCpu } from './measure/handler-cpu.js';
import { measureMemory } from './measure/memory.js';
import { countRequests, requestRows } from './measure/request-counts.js';
import { markdown } from './report.js';
import { createBenchTables, withEngine } from './support/engines.js';
import { repositoryRoot } from './support/node24.js';
import { dynamoDbSubjects, inMemorySubjects } from './support/subjects.js';

/** Full: enough samples for stable medians and p99s on a small machine. Smoke: every step once. */
const settings = {
  full: {
    cpuIterations: 5_000,
    cpuWarmup: 1_000,
    cpuEngineIterations: 1_000,
    cpuBlocks: 5,
    coldStartProcesses: 21,
    memoryCheckpoints: [1_000, 20_000],
    memoryConcurrency: 16,
    connections: 16,
    durationSeconds: 8,
    warmupSeconds: 2,
    // DynamoDB Local is a JVM whose JIT speeds it up for a minute or more: unmeasured load on
    // each receiver first, so the first measured runs do not pay for it.
    engineWarmupSeconds: 15,
    // Measured runs per receiver, alternating ours, baseline, baseline, ours, ...
    loadRounds: 4,
  },
  smoke: {
    cpuIterations: 50,
    cpuWarmup: 20,
    cpuEngineIterations: 20,
    cpuBlocks: 1,
    coldStartProcesses: 2,
    memoryCheckpoints: [20, 100],
    memoryConcurrency: 4,
    connections: 4,
    durationSeconds: 2,
    warmupSeconds: 0,
    engineWarmupSeconds: 0,
    loadRounds: 1,
  },
};

export type Settings = typeof settings.full;

const resultsDir = join(repositoryRoot, 'bench', 'results');
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

const program = commandProgram(
  'bench',
  'Measures ours against the baseline and prints the table.',
  {
    ok: 'measured (figures are printed, never judged)',
  },
)
  .option('--smoke', 'every step once, small: the figures mean nothing (CI)', false)
  .option('--write', `write latest.md and latest.json into ${join('bench', 'results')}`, false)
  .option('--out <dir>', 'write latest.md and latest.json into this folder instead')
  .option('--from <file>', 're-render a saved latest.json without measuring')
  .action(async (options) => {
    const results: BenchmarkResults = options.from
      ? (JSON.parse(await readFile(options.from, 'utf8')) as BenchmarkResults)
      : await measure(options.smoke || process.env.BENCH_SMOKE === '1' ? 'smoke' : 'full');
    const text = markdown(results);
    const outDir = options.out ?? (options.write ? resultsDir : undefined);
    if (!outDir) {
      process.stdout.write(`\n${text}\nNot written: pass --write to publish.\n`);
      return;
    }
    await mkdir(outDir, { recursive: true });
    const files = [join(outDir, 'latest.md'), join(outDir, 'latest.json')];
    await writeFile(files[0] as string, `# Benchmark results\n\n${text}`);
    await writeFile(files[1] as string, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`\n${text}\nWritten: ${files.join(', ')}\n`);
  });

export type BenchmarkResults = Awaited<ReturnType<typeof measure>>;

async function measure(mode: 'full' | 'smoke') {
  const s = settings[mode];
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  // The in-process receivers log and emit metrics as deployed (the stack sets INFO), whatever
  // the caller's shell or test runner set in the Powertools variables (both loggers read them).
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  delete process.env.POWERTOOLS_METRICS_DISABLED;
  delete process.env.POWERTOOLS_DEV;
  const cpuOptions = { iterations: s.cpuIterations, warmup: s.cpuWarmup, blocks: s.cpuBlocks };

  // First, before any engine runs: the quietest the machine will be.
  log('Handler CPU, in-memory stores');
  const cpu: CpuResult[] = await measureHandlerCpu({
    ...cpuOptions,
    setup: '',
    subjects: inMemorySubjects(),
    cases: cpuCases,
  });
  log(`Memory after ${s.memoryCheckpoints.join(' and ')} callbacks, store that keeps nothing`);
  const memory = await measureMemory(join(resultsDir, 'tmp', 'memory'), {
    engine: 'memory',
    checkpoints: s.memoryCheckpoints,
    concurrency: s.memoryConcurrency,
  });
  log('DynamoDB requests per callback, dynalite');
  const onDynalite = await withEngine('dynalite', (engine) => countRequests(engine));
  const rest = await withEngine('DynamoDB Local', async (engine) => {
    log('DynamoDB requests per callback, DynamoDB Local');
    const requestCounts = [...(await countRequests(engine)), ...onDynalite];
    log('Handler CPU, SDK against DynamoDB Local');
    const client = localDynamoDbClient(engine.endpoint);
    cpu.push(
      ...(await measureHandlerCpu({
        ...cpuOptions,
        iterations: s.cpuEngineIterations,
        warmup: Math.ceil(s.cpuEngineIterations / 5),
        setup: 'SDK + DynamoDB Local',
        subjects: dynamoDbSubjects(client, await createBenchTables(engine.endpoint)),
        cases: ['new', 'duplicate'],
      }).finally(() => client.destroy())),
    );
    log(`Cold start, ${s.coldStartProcesses} fresh processes per bundle`);
    const coldStart = await measureColdStart(
      engine,
      s.coldStartProcesses,
      join(resultsDir, 'tmp', 'cold-start'),
    );
    log(`End to end, ${s.connections} connections, ${s.durationSeconds} s per run`);
    const endToEnd = await measureEndToEnd(engine, s);
    return { requestCounts, coldStart, endToEnd };
  });
  return {
    mode,
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
      node: process.versions.node,
      loadBefore,
      loadAfter: loadavg(),
    },
    settings: s,
    rows: [
      ...requestRows(rest.requestCounts),
      ...cpuRows(cpu),
      ...coldStartRows(rest.coldStart),
      ...endToEndRows(rest.endToEnd),
    ],
    measurements: { ...rest, cpu, memory },
  };
}

await runProgram(program, 'bench');
