/** Starts AWS DynamoDB Local (Java) in memory on a free port, for the tests and the benchmarks. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitUntilTableNotExists } from '@aws-sdk/client-dynamodb';
import { localDynamoDbClient, type RunningEngine } from '../../local/engine/local-engine.js';
import { freePort } from '../../local/free-port.js';
import { fetchDynamoDbLocal } from './fetch.js';

/** `$JAVA_HOME/bin/java`, else `java` on the PATH, whichever runs first. */
export async function findJava(): Promise<string | undefined> {
  const { JAVA_HOME } = process.env;
  for (const candidate of [...(JAVA_HOME ? [join(JAVA_HOME, 'bin', 'java')] : []), 'java']) {
    const runs = await promisify(execFile)(candidate, ['-version'], { timeout: 30_000 }).then(
      () => true,
      () => false,
    );
    if (runs) return candidate;
  }
  return undefined;
}

export async function startDynamoDbLocal(
  options: { java?: string; log?: (message: string) => void } = {},
): Promise<RunningEngine> {
  const java = options.java ?? (await findJava());
  if (java === undefined) {
    throw new Error('DynamoDB Local needs Java 17 or later: no `java` on the PATH or in JAVA_HOME');
  }
  const dir = await fetchDynamoDbLocal(options.log ? { log: options.log } : {});
  // A free port can be taken between our probe and java's bind; retry only that case.
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(java, dir, await freePort());
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt >= 3) throw error;
    }
  }
}

class PortInUseError extends Error {}

async function launch(java: string, dir: string, port: number): Promise<RunningEngine> {
  const args = [
    // sqlite4java loads its native library from here.
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    ...['-jar', join(dir, 'DynamoDBLocal.jar'), '-port', String(port), '-inMemory'],
    // One database for every access key and region, so any client sees the same tables.
    ...['-sharedDb', '-disableTelemetry'],
  ];
  // Something already answering there would pass the readiness check in our stead. (One that
  // takes the port after this is caught by bindFailed, unless it answers DynamoDB first.)
  if (await isListening(port)) throw new PortInUseError(`Port ${port} is already in use`);

  const child = spawn(java, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const guard = child.pid === undefined ? undefined : startGuard(child.pid);
  let output = ''; // the last few KB, for error messages (reading also drains the pipes)
  const failed = new Promise<never>((_, fail) => {
    const onOutput = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8_192);
      // A failed bind does not end the JVM (only its main thread): it shows in the output.
      if (/BindException|Failed to bind/.test(output)) {
        fail(new PortInUseError(`DynamoDB Local could not bind port ${port}:\n${output}`));
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.once('error', (error) => fail(new Error(`Could not run ${java}: ${error.message}`)));
    child.once('exit', (code, signal) => {
      guard?.kill('SIGKILL'); // java's pid may now be reused: the guard must not signal it
      fail(
        new Error(
          `DynamoDB Local exited (code ${code}, signal ${signal}) before answering:\n${output}`,
        ),
      );
    });
  });
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      guard?.kill('SIGKILL');
      // No pid: java never started, so there is nothing to wait for.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.kill('SIGTERM');
        await once(child, 'exit');
        clearTimeout(timer);
      }
    })();
    return stopped;
  };

  const endpoint = `http://127.0.0.1:${port}`;
  const polling = new AbortController();
  try {
    await Promise.race([answering(endpoint, polling.signal), failed]);
  } catch (error) {
    polling.abort(error);
    await stop();
    throw error;
  }
  return { endpoint, stop };
}

/** Until DescribeTable of a table that is not there gets its ResourceNotFound: then it answers. */
async function answering(endpoint: string, abortSignal: AbortSignal): Promise<void> {
  const client = localDynamoDbClient(endpoint, {
    maxAttempts: 1,
    // A hung probe fails and is polled again: without the flag the timeout only logs a warning.
    requestHandler: {
      connectionTimeout: 1_000,
      requestTimeout: 5_000,
      throwOnRequestTimeout: true,
    },
  });
  try {
    await waitUntilTableNotExists(
      { client, maxWaitTime: 60, minDelay: 0.1, maxDelay: 0.5, abortSignal },
      { TableName: 'readiness-probe' },
    );
  } catch (error) {
    throw new Error(`DynamoDB Local did not answer on ${endpoint} within 60000 ms`, {
      cause: error,
    });
  } finally {
    client.destroy();
  }
}

/**
 * A tiny node process that stops java once this process is gone, however it goes (an exit
 * without stop(), SIGKILL, a test worker torn down): its stdin is a pipe from us, which the OS
 * closes then. An 'exit' hook would miss every death by signal; an orphan JVM holds ~300 MB.
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

/** Whether something accepts TCP connections on the port. */
async function isListening(port: number): Promise<boolean> {
  const socket = connect({ port, host: '127.0.0.1' });
  return once(socket, 'connect')
    .then(
      () => true,
      () => false,
    )
    .finally(() => socket.destroy());
}
