/**
 * `npm run bench:load`: load on the local server (the real handler behind the API Gateway
 * stand-in, in a process of its own), from autocannon on loopback. A benchmark that prints
 * figures, not a test: it fails only when the stored items disagree with the 204s.
 *
 *   1. calibrate: a few seconds flat out, to measure what this machine sustains;
 *   2. steady: a fixed rate (half the calibrated throughput unless --rate) for --duration seconds;
 *   3. burst: --burst-connections connections flat out, --burst seconds' worth of requests.
 *
 * Every request is a new signed callback with its own reference. Whatever got no 204 (a 503, or
 * no answer when a phase stopped on the clock) is sent again, as the gateway would, until it
 * gets one; then the table is scanned: stored items must equal the distinct references answered
 * 204, each 204 with its item.
 *
 * Flags: see `npm run bench:load -- --help`.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { Option } from 'commander';
import { startDynamoDbLocal } from '../../scripts/dynamodb-local/start.js';
import { commandProgram, runProgram } from '../../scripts/shared/command-program.js';
import { benchKey, callbackSource } from '../support/callbacks.js';
import { type PhaseResult, runPhase } from '../support/load-phase.js';
import { startServer } from '../support/server-process.js';
import { formatReport, type Verification } from './report.js';
import { type Settled, settle } from './settle.js';
import { storedReferences } from './stored-references.js';

interface LoadOptions {
  duration?: string;
  rate?: string;
  burst?: string;
  burstConnections: string;
  engine: 'embedded' | 'dynamodb-local';
  short: boolean;
  json?: string;
}

const program = commandProgram('bench:load', 'Load on the local server, checked against the table.')
  .option('--duration <s>', 'steady phase seconds (default 60, --short 10)')
  .option('--rate <req/s>', 'steady rate (default half the calibrated throughput)')
  .option('--burst <s>', "burst of this many seconds' worth of requests (default 10, --short 3)")
  .option('--burst-connections <n>', 'connections in the burst', '256')
  .addOption(
    new Option('--engine <engine>', "the local server's own dynalite, or DynamoDB Local")
      .choices(['embedded', 'dynamodb-local'])
      .default('embedded'),
  )
  .option('--short', 'CI: 10 s steady, 3 s burst', false)
  .option('--json <file>', 'also write the phases and the verification as JSON')
  .action(load);

await runProgram(program, 'bench:load');

async function load(values: LoadOptions): Promise<void> {
  const short = values.short;
  const steadySeconds = Number(values.duration ?? (short ? 10 : 60));
  const burstSeconds = Number(values.burst ?? (short ? 3 : 10));
  const calibrateSeconds = short ? 3 : 5;
  const runTag = Date.now().toString(36);
  const loadAtStart = loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

  const engine = values.engine === 'dynamodb-local' ? await startDynamoDbLocal() : undefined;
  const ready = await startServer('ours', {
    CALLBACK_API_KEYS: benchKey,
    TABLE_NAME: `load-${runTag}`,
    HASH_MODE: 'required',
    ...(engine ? { AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint } : {}),
  });
  try {
    const phases: PhaseResult[] = [];
    const source = (phase: string) => callbackSource(`${runTag}-${phase}`);

    // JIT, connection pools and the engine's first tables warm up before anything is measured.
    phases.push(
      await runPhase({
        name: 'warm-up',
        url: ready.url,
        key: benchKey,
        connections: 32,
        durationSeconds: short ? 1 : 2,
        next: source('warm-up'),
      }),
    );
    const calibrate = await runPhase({
      name: 'calibrate',
      url: ready.url,
      key: benchKey,
      connections: 32,
      durationSeconds: calibrateSeconds,
      next: source('calibrate'),
    });
    phases.push(calibrate);
    const sustained = calibrate.throughput.mean;
    // autocannon paces each connection separately: a rate that divides evenly keeps the total.
    const steadyConnections = 20;
    const rate = Number(
      values.rate ??
        Math.max(
          steadyConnections,
          Math.floor((sustained * 0.5) / steadyConnections) * steadyConnections,
        ),
    );

    phases.push(
      await runPhase({
        name: 'steady',
        url: ready.url,
        key: benchKey,
        connections: steadyConnections,
        durationSeconds: steadySeconds,
        rate,
        amount: rate * steadySeconds,
        next: source('steady'),
      }),
    );
    phases.push(
      await runPhase({
        name: 'burst',
        url: ready.url,
        key: benchKey,
        connections: Number(values.burstConnections),
        durationSeconds: burstSeconds,
        amount: Math.max(1_000, Math.round(sustained * burstSeconds)),
        next: source('burst'),
      }),
    );

    // A gateway resends what got no 204; then every reference sent must be stored exactly once.
    const settled = new Map<string, Settled>();
    for (const phase of phases)
      settled.set(phase.name, await settle(ready.url, benchKey, phase.unacknowledged));
    const stored = await storedReferences(ready.endpoint as string, ready.tableName as string);
    const verification = verify(phases, settled, stored, runTag);
    const report = formatReport({
      engine: engine ? 'DynamoDB Local' : 'its embedded dynalite',
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.versions.node}, load average at start ${loadAtStart}`,
      sustained,
      phases,
      verification,
    });
    console.log(report);
    if (values.json) {
      const plain = phases.map(({ acknowledged, unacknowledged, ...rest }) => ({
        ...rest,
        acknowledged: acknowledged.size,
        unacknowledged: unacknowledged.size,
      }));
      await writeFile(values.json, `${JSON.stringify({ phases: plain, verification }, null, 2)}\n`);
    }
    if (!verification.ok) process.exitCode = 1;
  } finally {
    await ready.stop();
    await engine?.stop();
  }
}

/**
 * Every reference answered 204, at first or on a retry, has its item, and no item lacks one:
 * stored items = distinct references acknowledged.
 */
function verify(
  phases: readonly PhaseResult[],
  settled: ReadonlyMap<string, Settled>,
  stored: ReadonlySet<string>,
  runTag: string,
): Verification {
  const rows = phases.map((phase) => {
    const prefix = `load-${runTag}-${phase.name}-`;
    const retry = settled.get(phase.name);
    const acknowledged = new Set([...phase.acknowledged, ...(retry?.acknowledged ?? [])]);
    const ours = [...stored].filter((reference) => reference.startsWith(prefix));
    const missing = [...acknowledged].filter((reference) => !stored.has(reference)).length;
    const unacknowledged = ours.filter((reference) => !acknowledged.has(reference)).length;
    return {
      phase: phase.name,
      firstAnswer204: phase.acknowledged.size,
      retried: retry?.retried ?? 0,
      alreadyStored: retry?.alreadyStored ?? 0,
      acknowledged: acknowledged.size,
      stored: ours.length,
      missing,
      unacknowledged,
      ok: missing === 0 && unacknowledged === 0 && (retry?.failed ?? 0) === 0,
    };
  });
  return { rows, ok: rows.every((row) => row.ok) };
}
