/**
 * `npm run bench:unsigned-bodies`: what another local user costs local mode's engine by sending
 * unsigned requests with large bodies. The engine runs alone in a fresh process
 * (guarded-engine.ts); 40 connections (`--connections`) each send an unsigned PutItem declaring
 * 15 MB (`--body-mb`) and try to send all of it. Prints the engine's RSS before, its peak while
 * they are served, after, and how much of the bodies the engine let through before closing. The
 * target (docs/performance.md) is an increase of at most 50 MB; figures are printed, not judged.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { positiveInteger } from '../../scripts/cli/cli-errors.js';
import { commandProgram, runProgram } from '../../scripts/cli/command-program.js';
import { cleanEnvironment, node24, repositoryRoot } from '../support/node24.js';
import { scriptArguments } from '../support/script-command.js';

const mb = 1024 * 1024;
const targetIncreaseMb = 50;
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

interface Reading {
  readonly rss: number;
  readonly peak: number;
}

/** What one connection saw: its answer's status line, and the body bytes it got to write. */
interface Attempt {
  readonly status: string;
  readonly bodyBytesWritten: number;
}

const program = commandProgram(
  'bench:unsigned-bodies',
  "Local mode's engine's memory under unsigned requests with large bodies.",
  { ok: 'measured (figures are printed, never judged)' },
)
  .option('--connections <n>', 'connections at once', positiveInteger('--connections'), 40)
  .option('--body-mb <n>', 'declared body size of each, in MB', positiveInteger('--body-mb'), 15)
  .action(async (options) => {
    const child = spawn(
      node24(),
      scriptArguments({ script: 'bench/engine/guarded-engine.ts', args: [], env: {} }),
      {
        cwd: repositoryRoot,
        env: cleanEnvironment({}),
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    try {
      const [{ endpoint, node }] = (await once(child, 'message')) as [
        { endpoint: string; node: string },
      ];
      // The first requests load the refusal path's code: part of the engine, not of the attack.
      await Promise.all([1, 2, 3].map(() => attempt(endpoint, 1024)));
      await new Promise((settle) => setTimeout(settle, 1_000));
      const before = await measure(child);
      log(`${options.connections} connections, ${options.bodyMb} MB each, unsigned`);
      const started = performance.now();
      const attempts = await Promise.all(
        Array.from({ length: options.connections }, () => attempt(endpoint, options.bodyMb * mb)),
      );
      const elapsedMs = performance.now() - started;
      const during = await measure(child);
      await new Promise((settle) => setTimeout(settle, 1_000));
      const after = await measure(child);
      process.stdout.write(
        report({ ...options, node }, before, during, after, attempts, elapsedMs),
      );
    } finally {
      child.send('stop');
      await once(child, 'exit');
    }
  });

/** The engine's RSS now, and its peak since the previous reading. */
async function measure(child: ChildProcess): Promise<Reading> {
  child.send('measure');
  const [reading] = (await once(child, 'message')) as [Reading];
  return reading;
}

/**
 * One unsigned PutItem declaring `bodyBytes`, whose body is sent for as long as the engine
 * takes it, a megabyte at a time.
 */
async function attempt(endpoint: string, bodyBytes: number): Promise<Attempt> {
  const { host, port } = new URL(endpoint);
  const socket = createConnection({ host: '127.0.0.1', port: Number(port) });
  let answer = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    answer += chunk;
  });
  // The engine closes a refused connection with the body unsent: the writes then fail.
  socket.on('error', () => {});
  const closed = new Promise((done) => socket.once('close', done));
  await once(socket, 'connect');
  const head =
    `POST / HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/x-amz-json-1.0\r\n` +
    `x-amz-target: DynamoDB_20120810.PutItem\r\ncontent-length: ${bodyBytes}\r\n\r\n`;
  socket.write(head);
  const headBytes = socket.bytesWritten;
  const chunk = Buffer.alloc(Math.min(mb, bodyBytes), 'x');
  let open = true;
  void closed.then(() => {
    open = false;
  });
  for (let sent = 0; sent < bodyBytes && open; sent += chunk.length) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
    if (!socket.write(piece)) await Promise.race([once(socket, 'drain').catch(() => {}), closed]);
  }
  if (open) socket.end();
  await closed;
  const bodyBytesWritten = Math.max(0, socket.bytesWritten - headBytes);
  return { status: answer.split('\r\n')[0] ?? '', bodyBytesWritten };
}

function report(
  options: { connections: number; bodyMb: number; node: string },
  before: Reading,
  during: Reading,
  after: Reading,
  attempts: readonly Attempt[],
  elapsedMs: number,
): string {
  const inMb = (bytes: number) => `${(bytes / mb).toFixed(1)} MB`;
  const peak = Math.max(during.peak, after.peak, during.rss);
  const statuses = new Map<string, number>();
  for (const { status } of attempts) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const written = attempts.reduce((total, { bodyBytesWritten }) => total + bodyBytesWritten, 0);
  const [load1, load5] = loadavg();
  return [
    '',
    `Unsigned requests with large bodies against local mode's engine (${new Date().toISOString()})`,
    `machine: ${cpus().length} cores, load ${load1?.toFixed(2)} / ${load5?.toFixed(2)} (1 / 5 min), engine on Node ${options.node}`,
    `connections: ${attempts.length} × ${options.bodyMb} MB declared, all closed in ${Math.round(elapsedMs)} ms`,
    `answers: ${[...statuses].map(([status, count]) => `${count} × ${status || 'none read (reset while still sending)'}`).join(', ')}`,
    `body bytes the clients got to write (into socket buffers included): ${inMb(written)} of ${inMb(options.connections * options.bodyMb * mb)}`,
    `engine RSS before: ${inMb(before.rss)}`,
    `engine RSS peak:   ${inMb(peak)}`,
    `engine RSS after:  ${inMb(after.rss)}`,
    `increase (peak - before): ${inMb(peak - before.rss)} (target ≤ ${targetIncreaseMb} MB)`,
    '',
  ].join('\n');
}

await runProgram(program, 'bench:unsigned-bodies');
