import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { measureColdStart } from './measure/cold-start.js';
import { measureEndToEnd } from './measure/end-to-end.js';
import {
  type CpuResult,
  type CpuSetup,
  cpuSetups,
  measureHandlerCpu,
} from './measure/handler-cpu.js';
import { countRequests, type RequestCount } from './measure/request-counts.js';
import type { ResultRow } from './report/result-row.js';
import { type Measurements, resultRows } from './report/rows.js';
import type { BenchSettings } from './settings.js';
import { type Engine, startEngine } from './support/engines.js';

export interface BenchmarkResults {
  readonly mode: 'full' | 'smoke';
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly machine: {
    readonly cpus: number;
    readonly cpuModel: string;
    readonly node: string;
    readonly platform: string;
    readonly loadBefore: readonly number[];
    readonly loadAfter: readonly number[];
  };
  readonly settings: BenchSettings;
  readonly rows: readonly ResultRow[];
  readonly measurements: Measurements;
}

export interface BenchmarkOptions {
  readonly mode: 'full' | 'smoke';
  readonly settings: BenchSettings;
  /** Scratch space for bundles (git-ignored). */
  readonly workDir: string;
  readonly log: (message: string) => void;
}

/**
 * Every measurement, ours and the baseline in the same run: request counts on both engines,
 * handler CPU in process, cold starts and the load test against one DynamoDB Local.
 */
export async function runBenchmark(options: BenchmarkOptions): Promise<BenchmarkResults> {
  const { settings, log } = options;
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();

  // First, before any engine runs: the quietest the machine will be.
  const cpu: CpuResult[] = [];
  for (const setup of Object.keys(cpuSetups) as CpuSetup[]) {
    log(`Handler CPU, ${setup}`);
    cpu.push(
      ...(await measureHandlerCpu({
        setup,
        iterations: settings.cpuIterations,
        warmup: settings.cpuWarmup,
        blocks: settings.cpuBlocks,
      })),
    );
  }

  const requestCounts: RequestCount[] = [];
  log('DynamoDB requests per callback, dynalite');
  await withEngine('dynalite', async (engine) => {
    requestCounts.push(...(await countRequests(engine, settings.requestRounds)));
  });

  const { coldStart, endToEnd } = await withEngine('DynamoDB Local', async (engine) => {
    log('DynamoDB requests per callback, DynamoDB Local');
    requestCounts.unshift(...(await countRequests(engine, settings.requestRounds)));
    log(`Cold start, ${settings.coldStartProcesses} fresh processes per bundle`);
    const coldStart = await measureColdStart({
      processes: settings.coldStartProcesses,
      engine,
      workDir: join(options.workDir, 'cold-start'),
    });
    log(`End to end, ${settings.connections} connections, ${settings.durationSeconds} s per run`);
    const endToEnd = await measureEndToEnd({
      engine,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
      engineWarmupSeconds: settings.engineWarmupSeconds,
      rounds: settings.loadRounds,
    });
    return { coldStart, endToEnd };
  });

  const measurements: Measurements = { requestCounts, cpu, coldStart, endToEnd };
  return {
    mode: options.mode,
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      loadBefore,
      loadAfter: loadavg(),
    },
    settings,
    rows: resultRows(measurements),
    measurements,
  };
}

async function withEngine<T>(
  name: Engine['name'],
  work: (engine: Engine) => Promise<T>,
): Promise<T> {
  const engine = await startEngine(name);
  try {
    return await work(engine);
  } finally {
    await engine.stop();
  }
}
