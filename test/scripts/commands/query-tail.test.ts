import { type ChildProcess, spawn } from 'node:child_process';
import { type EventEmitter, once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { type LocalServer, startLocalServer } from '../../../scripts/local/server.js';
import {
  createTestTable,
  type Engine,
  engineEndpoint,
  forEachEngine,
  type TestTable,
} from '../../support/engines.js';
import { transaction } from '../../support/fixtures.js';
import { until } from '../../support/forwarding.js';
import { runCommand } from '../../support/in-process-cli.js';
import { cleanEnv, repoRoot } from '../../support/local-cli.js';
import { recordOf } from '../../support/stream-records.js';

/**
 * `npm run query -- tail` as a user runs it: against local mode's running server (dynalite),
 * or against an engine by `--endpoint` (DynamoDB Local), a line per transaction received after
 * it started, none for what was there before, until Ctrl-C.
 */
forEachEngine((engine: Engine) => {
  let folder: string | undefined;
  let server: LocalServer | undefined;
  let table: TestTable | undefined;
  let tail: ChildProcess | undefined;

  afterEach(async () => {
    tail?.kill('SIGKILL');
    await server?.stop();
    await table?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
    [tail, server, table, folder] = [undefined, undefined, undefined, undefined];
  });

  /** Somewhere to write to, and the arguments and environment tail reads it with. */
  const target = async () => {
    if (engine === 'dynalite') {
      folder = await mkdtemp(join(tmpdir(), 'query-tail-'));
      server = await startLocalServer({ port: 0, dataDir: folder, apiKeys: 'tail-key' });
      return {
        args: [] as string[],
        env: { DATA_DIR: folder } as Record<string, string>,
        put: (reference: string) =>
          fetch(server?.url ?? '', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': 'tail-key' },
            body: JSON.stringify(transaction({ reference })),
          }).then((answer) => expect(answer.status).toBe(204)),
      };
    }
    table = await createTestTable(engine);
    const store = new DynamoDbTransactionStore(table.client, table.tableName);
    return {
      args: ['--endpoint', engineEndpoint(engine)],
      env: { TABLE_NAME: table.tableName } as Record<string, string>,
      put: async (reference: string) => {
        const receivedAt = new Date().toISOString();
        await store.putIfAbsent(recordOf(transaction({ reference }), { receivedAt }));
      },
    };
  };

  it('prints a line for each transaction received after it started, then stops on Ctrl-C', async () => {
    const where = await target();
    await where.put('before-tail');
    const child = spawn(
      'node',
      ['dist/cli/callback-receiver.js', 'query', 'tail', '--interval', '100', ...where.args],
      { cwd: repoRoot, env: cleanEnv(where.env) },
    );
    tail = child;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    await until(() => stderr.includes('Ctrl-C stops'), 'tail to start', 30_000);

    await where.put('tail-1');
    await where.put('tail-2');
    await until(() => stdout.split('\n').length > 2, 'two lines', 15_000);
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');

    const lines = stdout.trimEnd().split('\n');
    // Each once. In the order they became readable: an index entry that shows late (DynamoDB
    // Local under load) is printed when the overlap window finds it, after a newer one.
    expect(lines.map((line) => line.split(/\s+/)[1]).sort()).toEqual(['tail-1', 'tail-2']);
    expect(lines.find((line) => line.includes('tail-1'))).toMatch(
      /^\d{4}-\d\d-\d\dT\S+Z {2}tail-1 {2}deniz\.kaya {2}250075 {2}TRY/,
    );
    expect(code).toBe(0);
  }, 60_000);
});

it('refuses to follow local mode when no server is running, exit 2', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'query-tail-none-'));
  try {
    const result = await runCommand('query', ['tail'], { DATA_DIR: folder });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^query: tail follows a running server: start it \(npm start\)/m);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

/**
 * Tail in this process: the run's own stdout and stderr (replaced by runCommand for the run) are
 * watched, and Ctrl-C is delivered to tail's own listener alone, as the signal would.
 */
async function tailInProcess(format: 'line' | 'jsonl', reference: string) {
  const table = await createTestTable('dynalite');
  try {
    const store = new DynamoDbTransactionStore(table.client, table.tableName);
    const emitter: EventEmitter = process;
    const before = new Set(emitter.listeners('SIGINT'));
    let seen = '';
    const run = runCommand(
      'query',
      ['tail', '--format', format, '--interval', '50', '--endpoint', engineEndpoint('dynalite')],
      { TABLE_NAME: table.tableName },
      '',
      (text) => {
        seen += text;
      },
    );
    const ctrlC = () =>
      emitter.listeners('SIGINT').find((l) => !before.has(l) && String(l) === '() => stop.abort()');
    // Its first line says the cursor stands at now: what is received next is news. Watched
    // from the first write, so a loaded machine cannot print it before anyone looks.
    await until(() => seen.includes('Ctrl-C stops'), 'tail to start', 15_000);

    const receivedAt = new Date().toISOString();
    await store.putIfAbsent(recordOf(transaction({ reference }), { receivedAt }));
    await until(() => seen.includes(reference), 'the line', 15_000);
    (ctrlC() as () => void)();
    const result = await run;
    expect(result.stderr).toBe(
      `Following table ${table.tableName} at ${engineEndpoint('dynalite')}; Ctrl-C stops.\n`,
    );
    return { ...result, receivedAt };
  } finally {
    await table.drop();
  }
}

it('--format jsonl prints each new transaction as JSON, then Ctrl-C ends it with exit 0', async () => {
  const { stdout, code, receivedAt } = await tailInProcess('jsonl', 'tail-json');

  expect(
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line)),
  ).toEqual([expect.objectContaining({ reference: 'tail-json', amount: 250075, receivedAt })]);
  expect(code).toBe(0);
}, 60_000);

it('prints the main fields of each new transaction on a line, in-process', async () => {
  const { stdout, code, receivedAt } = await tailInProcess('line', 'tail-line');

  expect(stdout).toBe(`${receivedAt}  tail-line  deniz.kaya  250075  TRY  Deposit  Confirm\n`);
  expect(code).toBe(0);
}, 60_000);
