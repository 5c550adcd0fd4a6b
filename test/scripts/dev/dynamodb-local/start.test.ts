import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findJava, startDynamoDbLocal } from '../../../../scripts/dev/dynamodb-local/start.js';
import { localDynamoDbClient } from '../../../../scripts/local/engine/local-engine.js';

/**
 * DynamoDB Local as the tests and benchmarks start it (the run's own copy starts in vitest's
 * global setup, out of this process's sight): found Java, a start that answers and a stop that
 * ends it, and what each failure to start says.
 */

const run = promisify(execFile);
const java = await findJava();

describe('startDynamoDbLocal', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'dynamodb-local-start-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /** A stand-in `java`: a shell script that logs its arguments, then runs `body`. */
  async function fakeJava(name: string, body: string) {
    const path = join(folder, name);
    await writeFile(path, `#!/bin/sh\necho "$@" >> '${path}.calls'\n${body}\n`);
    await chmod(path, 0o755);
    return { path, calls: async () => (await readFile(`${path}.calls`, 'utf8')).trimEnd() };
  }

  it.runIf(java)('starts an engine that answers, and stop ends it', async () => {
    const engine = await startDynamoDbLocal({ java: java as string });
    const client = localDynamoDbClient(engine.endpoint, { maxAttempts: 1 });
    try {
      expect(await client.send(new ListTablesCommand({}))).toMatchObject({ TableNames: [] });

      await engine.stop();
      await engine.stop(); // a second stop waits for the same one

      await expect(client.send(new ListTablesCommand({}))).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      client.destroy();
      await engine.stop();
    }
  });

  it.runIf(java)('finds java in JAVA_HOME before the PATH', async () => {
    const home = dirname(dirname(java === 'java' ? await which('java') : (java as string)));
    vi.stubEnv('JAVA_HOME', home);

    expect(await findJava()).toBe(join(home, 'bin', 'java'));
  });

  it('says Java 17 is needed when neither JAVA_HOME nor the PATH has one', async () => {
    vi.stubEnv('JAVA_HOME', join(folder, 'no-such-jdk'));
    vi.stubEnv('PATH', folder);

    expect(await findJava()).toBeUndefined();
    await expect(startDynamoDbLocal()).rejects.toThrow(
      'DynamoDB Local needs Java 17 or later: no `java` on the PATH or in JAVA_HOME',
    );
  });

  it('names the java it could not run', async () => {
    const missing = join(folder, 'missing-java');

    await expect(startDynamoDbLocal({ java: missing })).rejects.toThrow(
      `Could not run ${missing}: spawn ${missing} ENOENT`,
    );
  });

  it('reports an engine that exits before answering, with its output', async () => {
    const exits = await fakeJava('exits', "echo 'Error: Unable to access jarfile' >&2\nexit 1");

    await expect(startDynamoDbLocal({ java: exits.path })).rejects.toThrow(
      /DynamoDB Local exited \(code 1, signal null\) before answering:\nError: Unable to access jarfile/,
    );
  });

  it('tries another port when the chosen one was taken, three times in all', async () => {
    const bound = await fakeJava(
      'bound',
      "echo 'java.net.BindException: Address already in use' >&2\nexec sleep 30",
    );

    await expect(startDynamoDbLocal({ java: bound.path })).rejects.toThrow(
      /DynamoDB Local could not bind port \d+:\njava\.net\.BindException/,
    );
    const ports = (await bound.calls()).split('\n').map((line) => /-port (\d+)/.exec(line)?.[1]);
    expect(ports).toHaveLength(3);
    expect(ports.every(Boolean)).toBe(true);
  });
});

/** The real path of a command on the PATH (the JDK's bin/java, behind the alternatives links). */
async function which(command: string): Promise<string> {
  const { stdout } = await run('sh', ['-c', `readlink -f "$(command -v ${command})"`]);
  return stdout.trim();
}
