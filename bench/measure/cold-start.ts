import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { build } from 'esbuild';
import { median } from '../../scripts/shared/statistics.js';
import { type Bundle, type BundleName, bundle, repositoryRoot } from '../cold-start/bundle.js';
import { apiGatewayEvent } from '../support/api-gateway-event.js';
import { benchKey, freshCallback } from '../support/callbacks.js';
import {
  createBenchTables,
  type Engine,
  engineClient,
  localAwsEnvironment,
} from '../support/engines.js';
import { cleanEnvironment, node24 } from '../support/node24.js';

const bundleNames: readonly BundleName[] = ['ours', 'baseline', 'floor'];

/** One fresh process: milliseconds since it started, at each step. */
export interface ProbeRun {
  readonly started: number;
  readonly loaded: number;
  readonly answered: number;
  readonly status: number;
}

export interface ColdStartResult {
  readonly bundle: Bundle;
  readonly runs: readonly ProbeRun[];
  /** Median time from process start to the first answer: what a cold invocation waits. */
  readonly firstAnswerMs: number;
  /** Median time to import the bundle (module evaluation included). */
  readonly loadMs: number;
  /** Median time of the first callback, from loaded to answered (SDK set-up, first request). */
  readonly firstCallbackMs: number;
}

export interface ColdStartOptions {
  readonly processes: number;
  readonly engine: Engine;
  /** Where bundles and the compiled probe go (git-ignored). */
  readonly workDir: string;
}

/**
 * Bundles ours, the baseline and the SDK floor as deployed, then starts fresh Node 24 processes
 * in turn (ours, baseline, floor, ours, ...) so that machine noise falls on all three alike.
 * Each process loads its bundle and answers one new callback against DynamoDB Local. One
 * unmeasured process per bundle first, so every bundle is read from a warm file cache.
 */
export async function measureColdStart(options: ColdStartOptions): Promise<ColdStartResult[]> {
  const bundles = new Map<BundleName, Bundle>();
  for (const name of bundleNames) bundles.set(name, await bundle(name, options.workDir));
  const probe = await compileProbe(options.workDir);

  const client = engineClient(options.engine.endpoint);
  const tables = await createBenchTables(client).finally(() => client.destroy());
  const environments: Record<BundleName, Record<string, string>> = {
    // As the stack configures the function, keys from the environment instead of the secret.
    ours: {
      TABLE_NAME: tables.ours,
      CALLBACK_API_KEYS: benchKey,
      HASH_MODE: 'if-present',
      DYNAMODB_TIMEOUT_MS: '2000',
      DYNAMODB_MAX_ATTEMPTS: '3',
      POWERTOOLS_SERVICE_NAME: 'callback-receiver',
      POWERTOOLS_METRICS_NAMESPACE: 'CallbackReceiver',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    },
    baseline: {
      TABLE_NAME: tables.baseline.transactions,
      IDEMPOTENCY_TABLE_NAME: tables.baseline.idempotency,
      CALLBACK_API_KEYS: benchKey,
      POWERTOOLS_SERVICE_NAME: 'callback-receiver-baseline',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    },
    // The floor writes into our table: same engine work per item.
    floor: { TABLE_NAME: tables.ours },
  };

  const runs = new Map<BundleName, ProbeRun[]>(bundleNames.map((name) => [name, []]));
  for (let round = -1; round < options.processes; round++) {
    for (const name of bundleNames) {
      const run = await runProbe(probe, {
        bundle: (bundles.get(name) as Bundle).file,
        env: { ...localAwsEnvironment, ...environments[name] },
        endpoint: options.engine.endpoint,
      });
      if (run.status !== 204) {
        throw new Error(`${name}: the first callback got ${run.status}, expected 204`);
      }
      if (round >= 0) runs.get(name)?.push(run);
    }
  }

  return bundleNames.map((name) => {
    const measured = runs.get(name) ?? [];
    return {
      bundle: bundles.get(name) as Bundle,
      runs: measured,
      firstAnswerMs: median(measured.map((run) => run.answered)),
      loadMs: median(measured.map((run) => run.loaded - run.started)),
      firstCallbackMs: median(measured.map((run) => run.answered - run.loaded)),
    };
  });
}

async function compileProbe(workDir: string): Promise<string> {
  const outfile = join(workDir, 'probe.mjs');
  await build({
    entryPoints: [join(repositoryRoot, 'bench/cold-start/probe.ts')],
    outfile,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    logLevel: 'silent',
  });
  return outfile;
}

async function runProbe(
  probe: string,
  options: { bundle: string; env: Record<string, string>; endpoint: string },
): Promise<ProbeRun> {
  const event = apiGatewayEvent(freshCallback(), { apiKey: benchKey });
  const child = spawn(node24(), [probe], {
    env: cleanEnvironment({
      ...options.env,
      AWS_ENDPOINT_URL_DYNAMODB: options.endpoint,
      BENCH_PROBE_BUNDLE: options.bundle,
      BENCH_PROBE_EVENT: JSON.stringify(event),
    }),
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let report = '';
  let errors = '';
  child.stdio[3]?.on('data', (chunk: Buffer) => {
    report += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-4_000);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  const line = report.trim().split('\n').pop();
  if (code !== 0 || !line) {
    throw new Error(`cold-start probe for ${options.bundle} exited with ${code}:\n${errors}`);
  }
  return JSON.parse(line) as ProbeRun;
}
