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
 * Flags: --duration <s> (60), --rate <req/s>, --burst <s> (10), --burst-connections <n> (256),
 * --engine embedded|dynamodb-local (embedded: the local server's own dynalite), --short (CI:
 * 10 s steady, 3 s burst), --json <file>.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startDynamoDbLocal } from '../../scripts/dynamodb-local/start.js';
import { callbackSource } from './callback-source.js';
import { type PhaseResult, runPhase } from './load-phase.js';
import { formatReport, type Verification } from './report.js';
import type { ServerReady } from './serve.js';
import { type Settled, settle } from './settle.js';
import { storedReferences } from './stored-references.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string' },
    rate: { type: 'string' },
    burst: { type: 'string' },
    'burst-connections': { type: 'string', default: '256' },
    engine: { type: 'string', default: 'embedded' },
    short: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const short = values.short;
const steadySeconds = Number(values.duration ?? (short ? 10 : 60));
const burstSeconds = Number(values.burst ?? (short ? 3 : 10));
const calibrateSeconds = short ? 3 : 5;
const key = 'load-key-2b7f0c9e41d85a36';
const runTag = Date.now().toString(36);
const loadAtStart = loadavg()
  .map((load) => load.toFixed(2))
  .join(' ');

const engine = values.engine === 'dynamodb-local' ? await startDynamoDbLocal() : undefined;
const server = await startServer(engine?.endpoint);
try {
  const ready = await serverReady(server);
  const phases: PhaseResult[] = [];
  const source = (phase: string) => callbackSource(key, `${runTag}-${phase}`);

  // JIT, connection pools and the engine's first tables warm up before anything is measured.
  phases.push(
    await runPhase({
      name: 'warm-up',
      url: ready.url,
      key,
      connections: 32,
      durationSeconds: short ? 1 : 2,
      next: source('warm-up'),
    }),
  );
  const calibrate = await runPhase({
    name: 'calibrate',
    url: ready.url,
    key,
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
      key,
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
      key,
      connections: Number(values['burst-connections']),
      durationSeconds: burstSeconds,
      amount: Math.max(1_000, Math.round(sustained * burstSeconds)),
      next: source('burst'),
    }),
  );

  // A gateway resends what got no 204; then every reference sent must be stored exactly once.
  const settled = new Map<string, Settled>();
  for (const phase of phases)
    settled.set(phase.name, await settle(ready.url, key, phase.unacknowledged));
  const stored = await storedReferences(ready.endpoint, ready.tableName);
  const verification = verify(phases, settled, stored);
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
  await stopServer(server);
  await engine?.stop();
}

/**
 * Every reference answered 204, at first or on a retry, has its item, and no item lacks one:
 * stored items = distinct references acknowledged.
 */
function verify(
  phases: readonly PhaseResult[],
  settled: ReadonlyMap<string, Settled>,
  stored: ReadonlySet<string>,
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

function startServer(endpoint: string | undefined): ChildProcess {
  const serve = fileURLToPath(new URL('./serve.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', serve], {
    env: {
      ...process.env,
      CALLBACK_API_KEYS: key,
      TABLE_NAME: `load-${runTag}`,
      ...(endpoint ? { AWS_ENDPOINT_URL_DYNAMODB: endpoint } : {}),
    },
    // The handler's log lines would cost the generator a pipe; the server writes them to nowhere.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  // Errors are logged to stderr (a 503 in the burst is expected): kept only to explain a crash.
  let lastErrors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    lastErrors = (lastErrors + chunk.toString('utf8')).slice(-4_000);
  });
  child.once('exit', (code) => {
    if (code !== 0 && code !== null)
      console.error(`local server exited with ${code}:\n${lastErrors}`);
  });
  return child;
}

async function serverReady(child: ChildProcess): Promise<ServerReady> {
  const [message] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the local server exited (code ${code}) before listening`);
    }),
  ])) as [ServerReady];
  return message;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
