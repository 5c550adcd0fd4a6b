import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { build } from 'esbuild';
import { median } from '../../scripts/gateway/statistics.js';
import type { ResultRow } from '../report.js';
import { apiGatewayEvent, benchKey, freshCallback } from '../support/deliveries.js';
import { createBenchTables, type Engine, localAwsEnvironment } from '../support/engines.js';
import { cleanEnvironment, node24, repositoryRoot } from '../support/node24.js';

/**
 * Bundles an entry as the CDK stack does (`NodejsFunction`: one minified ESM file for Node 24,
 * `module` builds first, nothing external, a `require` for CommonJS dependencies), with its
 * bytes per package (or repository folder), largest first.
 */
export async function bundle(entry: string, outDir: string) {
  const file = join(outDir, entry.replace(/\//g, '-').replace(/\.ts$/, '.mjs'));
  const { metafile } = await build({
    entryPoints: [join(repositoryRoot, entry)],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    mainFields: ['module', 'main'],
    target: 'node24',
    minify: true,
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values(metafile.outputs)[0];
  if (!output) throw new Error(`esbuild wrote no output for ${entry}`);
  const bySource = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const source =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.split('/').slice(0, 2).join('/');
    bySource.set(source, (bySource.get(source) ?? 0) + bytesInOutput);
  }
  return { file, bytes: output.bytes, composition: [...bySource].sort((a, b) => b[1] - a[1]) };
}

type ColdStartResult = Awaited<ReturnType<typeof measureColdStart>>[number];

/**
 * Ours, the baseline and the SDK floor (only `PutItem`), each in fresh Node 24 processes taken in
 * turn so machine noise falls on all three alike: load the bundle, answer one new callback
 * against DynamoDB Local. One unmeasured round first, so every bundle comes from a warm cache.
 */
export async function measureColdStart(
  engine: Engine,
  processes: number,
  workDir: string,
  options: ColdStartOptions = {},
) {
  const probe = await bundle('bench/measure/cold-start-probe.ts', workDir);
  const tables = await createBenchTables(engine.endpoint);
  const common = { ...localAwsEnvironment, AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint };
  // Keys from the environment, as the stack can configure them instead of the secret.
  const keys = { CALLBACK_API_KEYS: benchKey, POWERTOOLS_LOG_LEVEL: 'INFO' };
  const subjects = [
    [
      'ours',
      'lambda/receiver.ts',
      { TABLE_NAME: tables.ours, REFUSALS_TABLE_NAME: tables.refusals, ...keys },
    ],
    [
      'baseline',
      'bench/baseline/handler.ts',
      { TABLE_NAME: tables.baseline, IDEMPOTENCY_TABLE_NAME: tables.idempotency, ...keys },
    ],
    // The floor writes into our table: same engine work per item.
    ['floor', 'bench/floor/handler.ts', { TABLE_NAME: tables.ours }],
  ] as const;
  const chosen = subjects.filter(([name]) => options.subjects?.includes(name) ?? true);
  const built = await Promise.all(
    chosen.map(async ([name, entry, env]) => ({
      name: name as string,
      ...(await bundle(entry, workDir)),
      env: { ...common, ...env },
    })),
  );
  // A bundle built elsewhere (another commit's receiver) runs with ours' environment.
  const oursEnvironment = { ...common, ...subjects[0][2] };
  const extra = await Promise.all(
    (options.extraBundles ?? []).map(async ({ name, file }) => ({
      name,
      file,
      bytes: (await stat(file)).size,
      composition: [] as [string, number][],
      env: oursEnvironment,
    })),
  );
  const bundles = [...built, ...extra].map((subject) => ({ ...subject, runs: [] as ProbeRun[] }));
  for (let round = -1; round < processes; round++) {
    for (const subject of bundles) {
      const run = await runProbe(probe.file, subject.file, subject.env);
      if (run.status !== 204)
        throw new Error(`${subject.name}: first callback ${run.status}, not 204`);
      if (round >= 0) subject.runs.push(run);
    }
  }
  const floorRuns = bundles.find((subject) => subject.name === 'floor')?.runs;
  return bundles.map(({ name, bytes, composition, runs }) => ({
    name,
    bytes,
    composition,
    /**
     * The median of each round's ratio to the floor process run just before or after it: the
     * machine's load at that moment falls on both sides of the ratio.
     */
    pairedRatioToFloor: floorRuns
      ? median(runs.map((run, index) => run.answered / (floorRuns[index]?.answered ?? Number.NaN)))
      : Number.NaN,
    pairedCpuRatioToFloor: floorRuns
      ? median(runs.map((run, index) => run.cpu / (floorRuns[index]?.cpu ?? Number.NaN)))
      : Number.NaN,
    /** Medians: start to first answer (what a cold invocation waits), and its two parts. */
    firstAnswerMs: median(runs.map((run) => run.answered)),
    loadMs: median(runs.map((run) => run.loaded - run.started)),
    firstCallbackMs: median(runs.map((run) => run.answered - run.loaded)),
    firstAnswerCpuMs: median(runs.map((run) => run.cpu)),
  }));
}

export interface ColdStartOptions {
  /** Which of ours, baseline and floor to run. @default all three */
  readonly subjects?: readonly ('ours' | 'baseline' | 'floor')[];
  /** Bundles built elsewhere, run in the same rounds with ours' environment. */
  readonly extraBundles?: readonly { readonly name: string; readonly file: string }[];
}

/** One fresh process, in ms since it started: probe running, bundle loaded, callback answered. */
type ProbeRun = {
  started: number;
  loaded: number;
  answered: number;
  /** Process CPU time (user + system) until the answer, ms. */
  cpu: number;
  status: number;
};

async function runProbe(probe: string, file: string, env: Record<string, string>) {
  const event = JSON.stringify(apiGatewayEvent(freshCallback(), { apiKey: benchKey }));
  const child = spawn(node24(), [probe], {
    env: cleanEnvironment({ ...env, BENCH_PROBE_BUNDLE: file, BENCH_PROBE_EVENT: event }),
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const [report, errors, [code]] = await Promise.all([
    text(child.stdio[3] as Readable),
    text(child.stderr as Readable),
    once(child, 'close'),
  ]);
  if (code !== 0)
    throw new Error(`cold-start probe for ${file} exited with ${code}:\n${errors.slice(-4_000)}`);
  return JSON.parse(report) as ProbeRun;
}

export function coldStartRows(results: readonly ColdStartResult[]): ResultRow[] {
  const [ours, baseline, floor] = results;
  if (!ours || !baseline || !floor) return [];
  const row = (metric: string, unit: string, value: (r: ColdStartResult) => number, limit = 0) => ({
    section: 'Cold start' as const,
    metric,
    unit,
    ours: value(ours),
    baseline: value(baseline),
    floor: value(floor),
    ...(limit
      ? { target: { text: `≤ ${limit}× floor`, met: value(ours) <= value(floor) * limit } }
      : {}),
  });
  return [
    row('bundle size, minified as deployed', 'KB', (r) => r.bytes / 1024, 1.1),
    row('process start to first answer, median', 'ms', (r) => r.firstAnswerMs, 1.15),
    row('of which loading the bundle', 'ms', (r) => r.loadMs),
    row('of which the first callback', 'ms', (r) => r.firstCallbackMs),
    row('process CPU time to first answer, median', 'ms', (r) => r.firstAnswerCpuMs),
  ];
}
