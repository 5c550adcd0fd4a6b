/**
 * `npm run bench:forwarding`: local mode's event forwarding (`npm start -- --forward-events`)
 * over a table already holding 1,000 and 100,000 transactions (`--sizes`), on dynalite in this
 * process as `npm start` runs it. For each size it prints: the delay from a callback's answer to
 * its event at the consumer (median, p95, max), the CPU the server process spends while idle with
 * forwarding on and off, and, across a stop and a start with callbacks recorded while it was
 * stopped, how many events were missed and how many references were sent twice. Figures only:
 * docs/performance.md quotes them with the machine and date.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { commandProgram, runProgram } from '../../scripts/cli/command-program.js';
import { callbackBody, sampleTransaction } from '../../scripts/gateway/gateway-callback.js';
import { median, quantile } from '../../scripts/gateway/statistics.js';
import { startDynalite } from '../../scripts/local/engine/dynalite.js';
import { ensureTable, localDynamoDbClient } from '../../scripts/local/engine/local-engine.js';
import { type LocalServer, startLocalServer } from '../../scripts/local/server.js';
import { silenceOutput } from '../support/silence-output.js';
import { benchRecord, seedTransactions } from '../tools/scale-data.js';

const key = 'bench-forwarding-key';
const tableName = 'bench-forwarding';
// Kept before the receiver's log lines are silenced, so the bench's own progress still shows.
const stderr = process.stderr.write.bind(process.stderr);
const log = (message: string) => stderr(`bench: ${message}\n`);
/** The targets (docs/performance.md). */
const targets = { medianDelayMs: 2000, idleCpuPercent: 5 };

const program = commandProgram(
  'bench:forwarding',
  "Measures local mode's event forwarding: delay, idle CPU, a restart.",
  { ok: 'measured and printed' },
)
  .option('--sizes <list>', 'transactions in the table before measuring', '1000,100000')
  .option('--callbacks <n>', 'callbacks timed at each size', '40')
  .option('--idle-seconds <n>', 'how long idle CPU is measured', '15')
  .action(async (options) => {
    const sizes = options.sizes.split(',').map(Number);
    const rows: string[] = [];
    const restore = silenceOutput();
    try {
      for (const size of sizes) {
        const idleMs = Number(options.idleSeconds) * 1000;
        rows.push(await measure(size, Number(options.callbacks), idleMs));
      }
    } finally {
      restore();
    }
    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    process.stdout.write(
      `\nEvent forwarding on dynalite (${cpus().length} cores, ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)})\n\n` +
        '| transactions | answer → consumer median | p95 | max | idle CPU, forwarding on | off | missed across a restart | sent twice |\n' +
        '|---:|---:|---:|---:|---:|---:|---:|---:|\n' +
        rows.join('\n') +
        `\n\nTargets: median ≤ ${targets.medianDelayMs} ms, idle CPU ≤ ${targets.idleCpuPercent}% of a core, none missed or sent twice.\n`,
    );
  });

async function measure(size: number, callbacks: number, idleMs: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-forwarding-'));
  const engine = await startDynalite(join(dir, 'engine'));
  const client = localDynamoDbClient(engine.endpoint);
  const arrivals = new Map<string, number[]>();
  const ids = new Map<string, Set<string>>();
  const consumer = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(body) as { id: string; detail: { reference: string } };
      const reference = event.detail.reference;
      arrivals.set(reference, [...(arrivals.get(reference) ?? []), at]);
      ids.set(reference, (ids.get(reference) ?? new Set()).add(event.id));
      response.writeHead(204).end();
    });
  });
  consumer.listen(0, '127.0.0.1');
  await once(consumer, 'listening');
  const url = `http://127.0.0.1:${(consumer.address() as { port: number }).port}/events`;
  let server: LocalServer | undefined;
  const start = (forward: boolean) =>
    startLocalServer({
      port: 0,
      dataDir: join(dir, 'run'),
      apiKeys: key,
      tableName,
      endpoint: engine.endpoint,
      ...(forward && { forwardEvents: { url, log: () => {} } }),
    });
  try {
    await ensureTable(client, tableName, { create: true });
    log(`${size}: seeding`);
    const seeded = Date.now();
    await seedTransactions(client, tableName, size, (n) => log(`  ${n} seeded`));
    log(`${size}: seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    server = await start(false);
    const idleOff = await idleCpu(idleMs);
    await server.stop();

    server = await start(true);
    const idleOn = await idleCpu(idleMs);
    log(`${size}: idle CPU ${idleOn.toFixed(1)}% forwarding, ${idleOff.toFixed(1)}% without`);

    const delays: number[] = [];
    for (let i = 0; i < callbacks; i++) {
      const reference = `delay-${size}-${i}`;
      const answer = await post(server, reference);
      const answered = performance.now();
      if (answer !== 204) throw new Error(`callback answered ${answer}`);
      while (!arrivals.has(reference)) await sleep(5);
      delays.push((arrivals.get(reference)?.[0] ?? Number.NaN) - answered);
      await sleep(100 + Math.random() * 400); // callbacks apart, at random phases of the poll
    }
    log(`${size}: median delay ${median(delays).toFixed(0)} ms`);

    // A restart: callbacks answered just before the stop, more recorded while it is stopped
    // (written to the table as another writer would), then a start.
    const restart = Array.from({ length: 20 }, (_, i) => `restart-${size}-${i}`);
    for (const reference of restart.slice(0, 10)) await post(server, reference);
    await server.stop();
    const store = new DynamoDbTransactionStore(client, tableName);
    for (const [i, reference] of restart.slice(10).entries()) {
      const record = benchRecord(size + i, size + 20);
      const transaction = { ...record.transaction, reference };
      await store.putIfAbsent({ ...record, transaction, receivedAt: new Date().toISOString() });
    }
    server = await start(true);
    const deadline = Date.now() + 30_000;
    while (restart.some((r) => !arrivals.has(r)) && Date.now() < deadline) await sleep(50);
    await sleep(3_000); // time for anything that would come twice
    const missed = restart.filter((r) => !arrivals.has(r)).length;
    const all = [...arrivals.keys()];
    const twice = all.filter((r) => (arrivals.get(r)?.length ?? 0) > 1);
    const twiceNewId = twice.filter((r) => (ids.get(r)?.size ?? 0) > 1);
    log(
      `${size}: restart: ${missed} missed, ${twice.length} sent twice (${twiceNewId.length} as a new event)`,
    );

    const ms = (value: number) => `${Math.round(value)} ms`;
    return `| ${size.toLocaleString('en')} | ${ms(median(delays))} | ${ms(quantile(delays, 0.95))} | ${ms(Math.max(...delays))} | ${idleOn.toFixed(1)}% | ${idleOff.toFixed(1)}% | ${missed} of 20 | ${twice.length} |`;
  } finally {
    await server?.stop();
    consumer.close();
    client.destroy();
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Percent of one core this process spent over `ms` with nothing to do. */
async function idleCpu(ms: number): Promise<number> {
  await sleep(2_000); // the start's own work settles
  const before = process.cpuUsage();
  const started = performance.now();
  await sleep(ms);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 / (performance.now() - started)) * 100;
}

async function post(server: LocalServer, reference: string): Promise<number> {
  const answer = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: callbackBody(sampleTransaction({ reference }), key),
  });
  await answer.arrayBuffer();
  return answer.status;
}

await runProgram(program, 'bench:forwarding');
