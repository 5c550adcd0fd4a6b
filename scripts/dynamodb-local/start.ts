/**
 * Starts AWS DynamoDB Local (Java) on a free port and hands it out once it answers requests.
 * Used by the tests' global setup, local mode and the benchmarks, so it knows nothing about
 * any of them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from '../shared/free-port.js';
import { fetchDynamoDbLocal } from './fetch.js';

const execFileAsync = promisify(execFile);

export interface RunningEngine {
  /** `http://127.0.0.1:<port>`, for a DynamoDB client's `endpoint`. */
  readonly endpoint: string;
  /** Stops the engine; safe to call more than once. */
  stop(): Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Keep the database in this folder instead of in memory. */
  readonly dbPath?: string;
  /** Port to listen on; a free one by default. */
  readonly port?: number;
  /** How long to wait for the first successful ListTables (default 60 s). */
  readonly startTimeoutMs?: number;
  /** The java executable; found with {@link findJava} by default. */
  readonly java?: string;
  /** Progress messages (the jar fetch); silent by default. */
  readonly log?: (message: string) => void;
}

/**
 * The java executable that runs (`$JAVA_HOME/bin/java`, then `java` on the PATH), or undefined
 * when there is none.
 */
export async function findJava(): Promise<string | undefined> {
  const candidates = [
    ...(process.env.JAVA_HOME ? [join(process.env.JAVA_HOME, 'bin', 'java')] : []),
    'java',
  ];
  for (const candidate of candidates) {
    try {
      await execFileAsync(candidate, ['-version'], { timeout: 30_000 });
      return candidate;
    } catch {
      // Not there or not runnable: try the next one.
    }
  }
  return undefined;
}

/** Fetches the pinned jar if needed, starts it and waits until ListTables succeeds. */
export async function startDynamoDbLocal(
  options: DynamoDbLocalOptions = {},
): Promise<RunningEngine> {
  const java = options.java ?? (await findJava());
  if (java === undefined) {
    throw new Error('DynamoDB Local needs Java 17 or later: no `java` on the PATH or in JAVA_HOME');
  }
  const dir = await fetchDynamoDbLocal(options.log ? { log: options.log } : {});

  // A free port can be taken between our probe and java's bind; retry only that case.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await launch(java, dir, port, options);
    } catch (error) {
      const portClash = error instanceof PortInUseError;
      if (!portClash || options.port !== undefined || attempt >= 3) throw error;
    }
  }
}

class PortInUseError extends Error {}

async function launch(
  java: string,
  dir: string,
  port: number,
  options: DynamoDbLocalOptions,
): Promise<RunningEngine> {
  const args = [
    // sqlite4java loads its native library from here.
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    // One database for every access key and region, so any client sees the same tables.
    '-sharedDb',
    '-disableTelemetry',
    ...(options.dbPath === undefined ? ['-inMemory'] : ['-dbPath', options.dbPath]),
  ];
  // Something already answering there would pass the readiness check below in our stead. (A
  // process that takes the port between here and java's bind is caught by bindFailed below,
  // unless it answers ListTables first: unlikely with a port the OS has just handed out.)
  if (await isListening(port)) throw new PortInUseError(`Port ${port} is already in use`);

  const child = spawn(java, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = captureOutput(child);
  // A failed bind does not end the JVM (only its main thread), so watch the output for it.
  const bindFailed = new Promise<never>((_, fail) => {
    const check = () => {
      if (/BindException|Failed to bind/.test(output())) {
        fail(new PortInUseError(`DynamoDB Local could not bind port ${port}:\n${output()}`));
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
  });
  // Never leave a JVM behind when this process ends without calling stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const guard = child.pid === undefined ? undefined : startGuard(child.pid);

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => {
      // Its pid may now be reused: the guard must not signal it any more.
      guard?.kill('SIGKILL');
      done({ code, signal });
    }),
  );
  const spawnFailed = new Promise<Error>((done) => child.once('error', done));

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      guard?.kill('SIGKILL');
      // No pid: java never started, so there is nothing to wait for.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', killOnExit);
    })();
    return stopped;
  };

  const endpoint = `http://127.0.0.1:${port}`;
  const polling = new AbortController();
  try {
    await Promise.race([
      waitUntilAnswering(endpoint, options.startTimeoutMs ?? 60_000, polling.signal),
      bindFailed,
      exited.then(({ code, signal }) => {
        throw new Error(
          `DynamoDB Local exited (code ${code}, signal ${signal}) before answering:\n${output()}`,
        );
      }),
      spawnFailed.then((error) => {
        throw new Error(`Could not run ${java}: ${error.message}`);
      }),
    ]);
  } catch (error) {
    polling.abort(error);
    await stop();
    throw error;
  }
  return { endpoint, stop };
}

async function waitUntilAnswering(
  endpoint: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 },
  });
  const deadline = Date.now() + timeoutMs;
  try {
    // Stops polling once the start has failed otherwise (else it would hold the process open).
    while (!signal.aborted) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: signal });
        return;
      } catch (error) {
        if (Date.now() > deadline) {
          throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms`, {
            cause: error,
          });
        }
        await sleep(100);
      }
    }
    throw signal.reason;
  } finally {
    client.destroy();
  }
}

/**
 * A tiny node process that stops java once this process is gone, however it goes (SIGKILL, a
 * test worker torn down, a `timeout`): its stdin is a pipe from us, which the OS closes then.
 * The 'exit' hook alone misses every death by signal, and an orphan JVM holds ~300 MB.
 */
function startGuard(javaPid: number): ChildProcess {
  const script = `process.stdin.on('end', () => { try { process.kill(${javaPid}, 'SIGTERM'); } catch {} process.exit(0); }).resume();`;
  const { NODE_OPTIONS: _, ...env } = process.env; // tsx or vitest hooks would only slow it down
  const guard = spawn(process.execPath, ['-e', script], {
    stdio: ['pipe', 'ignore', 'ignore'],
    env,
  });
  // The guard must not keep this process alive.
  guard.unref();
  (guard.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return guard;
}

/** Keeps the last few KB of the child's output for error messages (and drains the pipes). */
function captureOutput(child: ChildProcess): () => string {
  let text = '';
  const append = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-8_192);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => text;
}

/** Whether something accepts TCP connections on the port. */
async function isListening(port: number): Promise<boolean> {
  const socket = connect({ port, host: '127.0.0.1' });
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}
