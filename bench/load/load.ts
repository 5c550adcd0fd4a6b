/**
 * `npm run bench:load`: load on the local server (the real handler behind the API Gateway
 * stand-in, in a process of its own) from autocannon on loopback. It prints figures and fails
 * only when the stored items disagree with the 204s.
 *
 *   1. calibrate: a few seconds flat out, to measure what this machine sustains;
 *   2. steady: a fixed rate (half the calibrated throughput unless --rate) for --duration seconds;
 *   3. burst: --burst-connections connections flat out, --burst seconds' worth of requests.
 *
 * Every request is a new signed callback with its own reference. Whatever got no 204 is sent
 * again, as the gateway would, until it gets one; then the table must hold exactly the distinct
 * references answered 204.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { paginateScan } from '@aws-sdk/client-dynamodb';
import { Option } from '@commander-js/extra-typings';
import { commandProgram, exitCodes, runProgram } from '../../scripts/cli/command-program.js';
import { textTable } from '../../scripts/cli/output/text-table.js';
import { startDynamoDbLocal } from '../../scripts/dev/dynamodb-local/start.js';
import { deliver } from '../../scripts/gateway/deliver.js';
import { engineCredentialsFor } from '../../scripts/local/engine/engine-credentials.js';
import { localDynamoDbClient } from '../../scripts/local/engine/local-engine.js';
import { localData } from '../../scripts/local/local-data.js';
import { benchKey, callbackSource } from '../support/deliveries.js';
import { type PhaseOptions, type PhaseResult, runPhase } from '../support/load-phase.js';
import { startServer } from '../support/server.js';

const command = commandProgram(
  'bench:load',
  'Load on the local server, checked against the table.',
  {
    ok: 'the stored items match the 204s',
    differences: 'they do not',
  },
)
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
  .option('--json <file>', 'also write the phases and the verification as JSON');

await runProgram(command.action(load), 'bench:load');

async function load(options: ReturnType<typeof command.opts>): Promise<void> {
  const { short } = options;
  const steadySeconds = Number(options.duration ?? (short ? 10 : 60));
  const burstSeconds = Number(options.burst ?? (short ? 3 : 10));
  const runTag = Date.now().toString(36);
  const loadAtStart = loadavg().map((value) => value.toFixed(2));
  const engine = options.engine === 'dynamodb-local' ? await startDynamoDbLocal() : undefined;
  const server = await startServer('ours', {
    CALLBACK_API_KEYS: benchKey,
    TABLE_NAME: `load-${runTag}`,
    HASH_MODE: 'required',
    ...(engine ? { AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint } : {}),
  });
  try {
    const phase = (name: string, settings: Omit<PhaseOptions, 'name' | 'url' | 'next'>) =>
      runPhase({ name, url: server.url, next: callbackSource(`${runTag}-${name}`), ...settings });
    // JIT, connection pools and the engine's first tables warm up before anything is measured.
    const phases = [await phase('warm-up', { connections: 32, durationSeconds: short ? 1 : 2 })];
    phases.push(await phase('calibrate', { connections: 32, durationSeconds: short ? 3 : 5 }));
    const sustained = phases[1]?.requestsPerSecond ?? 0;
    // autocannon paces each connection separately: a rate that divides evenly keeps the total.
    const rate = Number(options.rate ?? Math.max(20, Math.floor(sustained / 40) * 20));
    const amount = rate * steadySeconds;
    phases.push(
      await phase('steady', { connections: 20, durationSeconds: steadySeconds, rate, amount }),
    );
    phases.push(
      await phase('burst', {
        connections: Number(options.burstConnections),
        durationSeconds: burstSeconds,
        amount: Math.max(1_000, Math.round(sustained * burstSeconds)),
      }),
    );
    const resent: Settled[] = [];
    for (const { unacknowledged } of phases) resent.push(await settle(server.url, unacknowledged));
    const stored = await storedReferences(server as Required<typeof server>);
    const checks = phases.map((p, i) => check(p, resent[i] as Settled, stored, runTag));
    const ok = checks.every((c) => c.ok);

    console.log(
      `Load on the local server over ${engine ? 'DynamoDB Local' : 'its embedded dynalite'}, ` +
        `autocannon on loopback; calibrated at ${sustained.toFixed(0)} req/s\n` +
        `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.versions.node}, ` +
        `load average at start ${loadAtStart.join(' ')}\n`,
    );
    const phaseColumns = 'phase|target|conns|requests|req/s|p50 ms|p90 ms|p99 ms|max ms|statuses';
    const phaseRows = phases.map((p) => [
      p.name,
      p.rate ? `${p.rate}/s` : 'max',
      ...[p.connections, p.requests, Math.round(p.requestsPerSecond)].map(String),
      ...Object.values(p.latencyMs).map(String),
      Object.entries(p.statuses)
        .map((status) => status.join('×'))
        .join(' '),
      ...[p.errors, p.timeouts].map(String),
    ]);
    console.log(textTable(`${phaseColumns}|errors|timeouts`.split('|'), phaseRows));
    console.log(
      'Stored items against 204s for distinct references (non-204s resent until 204, as a gateway does):',
    );
    const checkColumns =
      'phase|204 at once|resent|204 in all|stored|204 without item|item without 204';
    const checkRows = checks.map((c) => [
      c.phase,
      String(c.firstAnswer204),
      `${c.resent} (${c.alreadyStored} already stored)`,
      ...[c.acknowledged, c.stored, c.missing, c.unacknowledged].map(String),
      c.ok ? 'ok' : 'FAILED',
    ]);
    console.log(textTable(`${checkColumns}|check`.split('|'), checkRows));
    if (options.json) {
      const plain = phases.map((p) => ({
        ...p,
        acknowledged: p.acknowledged.size,
        unacknowledged: p.unacknowledged.size,
      }));
      await writeFile(
        options.json,
        `${JSON.stringify({ phases: plain, verification: { rows: checks, ok } }, null, 2)}\n`,
      );
    }
    if (!ok) process.exitCode = exitCodes.differences;
  } finally {
    await server.stop();
    await engine?.stop();
  }
}

type Settled = Awaited<ReturnType<typeof settle>>;

/**
 * What the gateway does with a callback that got a 503 or no answer: send it again until a 2xx.
 * A 503 after a timeout may hide a write that landed, so some retries are `duplicate`.
 */
async function settle(url: string, unacknowledged: ReadonlyMap<string, string>) {
  const acknowledged = new Set<string>();
  let alreadyStored = 0;
  let failed = 0;
  const queue = [...unacknowledged];
  const retry = { maxAttempts: 20, backoffMs: 100, maxBackoffMs: 2_000, timeoutMs: 30_000 };
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const result = await deliver(url, benchKey, next[1], retry);
      if (result.status === 204) acknowledged.add(next[0]);
      else failed += 1;
      if (result.status === 204 && result.outcome === 'duplicate') alreadyStored += 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { alreadyStored, acknowledged, failed };
}

/** Every transaction reference in the table, read straight from the engine after the run. */
async function storedReferences(server: {
  endpoint: string;
  tableName: string;
  dataDir: string;
}): Promise<Set<string>> {
  const { endpoint, tableName } = server;
  // The embedded engine answers to its run's credentials; DynamoDB Local to any.
  const credentials = await engineCredentialsFor(localData(server.dataDir), endpoint);
  const client = localDynamoDbClient(endpoint, credentials ? { credentials } : {});
  const references = new Set<string>();
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      ConsistentRead: true,
      ProjectionExpression: '#reference, #record',
      ExpressionAttributeNames: { '#reference': 'reference', '#record': 'record' },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      if (item.record?.S === 'transaction' && item.reference?.S) references.add(item.reference.S);
    }
  }
  client.destroy();
  return references;
}

/** Stored items = distinct references answered 204, at first or on a retry, for one phase. */
function check(phase: PhaseResult, settled: Settled, stored: ReadonlySet<string>, runTag: string) {
  const acknowledged = new Set([...phase.acknowledged, ...settled.acknowledged]);
  const prefix = `load-${runTag}-${phase.name}-`;
  const items = [...stored].filter((reference) => reference.startsWith(prefix));
  const missing = [...acknowledged].filter((reference) => !stored.has(reference)).length;
  const unacknowledged = items.filter((reference) => !acknowledged.has(reference)).length;
  return {
    phase: phase.name,
    firstAnswer204: phase.acknowledged.size,
    resent: phase.unacknowledged.size,
    alreadyStored: settled.alreadyStored,
    acknowledged: acknowledged.size,
    stored: items.length,
    missing,
    unacknowledged,
    ok: missing === 0 && unacknowledged === 0 && settled.failed === 0,
  };
}
