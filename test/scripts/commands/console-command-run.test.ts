import type { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudFormationStandIn } from '../../support/cloudformation-stand-in.js';
import {
  createTestRefusalsTable,
  createTestTable,
  engineEndpoint,
  type TestTable,
  testCredentials,
  testRegion,
} from '../../support/engines.js';
import { runCommand } from '../../support/in-process-cli.js';
import { freePort } from '../../support/local-cli.js';

/**
 * `npm run console` in this process, from start to Ctrl-C: what it prints while it serves, and
 * how it refuses before it serves. console-command.test.ts drives the served pages in a child
 * process; here the command's own decisions are what is checked.
 */
const aws = {
  AWS_REGION: testRegion,
  AWS_ACCESS_KEY_ID: testCredentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: testCredentials.secretAccessKey,
};
const endpoint = engineEndpoint('dynalite');
let table: TestTable;
let refusals: TestTable;

beforeAll(async () => {
  table = await createTestTable('dynalite');
  refusals = await createTestRefusalsTable('dynalite');
});
afterAll(async () => {
  await table.drop();
  await refusals.drop();
});

/**
 * Runs the console until it serves, then delivers Ctrl-C to it alone: its own SIGINT listener
 * (console-command.ts stopped()) is called, as the signal would. Emitting the signal would reach
 * every listener in this worker, those of modules that re-raise it to end the process among them.
 */
async function serveThenCtrlC(args: readonly string[], env: Record<string, string>) {
  const emitter: EventEmitter = process;
  const before = new Set(emitter.listeners('SIGINT'));
  const run = runCommand('console', args, env);
  let added: ((signal: string) => void)[] = [];
  const deadline = Date.now() + 20_000;
  let done = false;
  run.finally(() => {
    done = true;
  });
  while (added.length === 0 && !done && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    added = emitter
      .listeners('SIGINT')
      .filter((l) => !before.has(l) && String(l) === '() => resolve()') as typeof added;
  }
  for (const listener of added) listener('SIGINT');
  return run;
}

describe('npm run console, serving', () => {
  it('says what it serves and where, read-only, then stops on Ctrl-C with exit 0', async () => {
    const result = await serveThenCtrlC(
      ['--table', table.tableName, '--refusals-table', refusals.tableName, '--endpoint', endpoint],
      aws,
    );

    expect(result.stdout).toMatch(
      new RegExp(
        `^Operator console for table ${table.tableName} \\(read-only\\)\n\n` +
          'Console: http://[0-9a-f]{32}\\.localhost:\\d+/login\\?token=\\S+\n' +
          ' {2}\\(in a browser on this machine; the link signs in once: docs/console\\.md\\)\n\n' +
          'Ctrl-C stops it\\.\n$',
      ),
    );
    expect(result.stderr).toBe('Stopping…\n');
    expect(result.code).toBe(0);
  });

  it('names the stack and that actions are allowed with --stack and --allow-actions', async () => {
    const cloudFormation = await startCloudFormationStandIn('CallbackReceiver', {
      TableName: table.tableName,
      RefusalsTableName: refusals.tableName,
      CallbackUrl: 'http://127.0.0.1:9/callback',
    });
    try {
      const result = await serveThenCtrlC(
        ['--stack', 'CallbackReceiver', '--endpoint', endpoint, '--allow-actions'],
        {
          ...aws,
          AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.endpoint,
          CALLBACK_API_KEY: 'console-run-key',
        },
      );

      expect(result.stdout).toMatch(
        /^Operator console for stack CallbackReceiver \(settle and resubmit allowed\)\n/,
      );
      expect(result.stdout).not.toContain('console-run-key');
      expect(result.code).toBe(0);
    } finally {
      await cloudFormation.close();
    }
  });
});

describe('npm run console refuses', () => {
  const tables = () => [
    '--table',
    table.tableName,
    '--refusals-table',
    refusals.tableName,
    '--endpoint',
    endpoint,
  ];

  it('a port that is not a number, with exit 2', async () => {
    const result = await runCommand('console', [...tables(), '--port', '80a'], aws);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^console: --port must be 0-65535, got 80a$/m);
    expect(result.stdout).toBe('');
  });

  it('a port in use, with exit 2 saying to pick another', async () => {
    const port = await freePort();
    const busy: Server = createServer();
    await new Promise<void>((listening) => busy.listen(port, '127.0.0.1', listening));
    try {
      const result = await runCommand('console', [...tables(), '--port', String(port)], aws);

      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(`^console: port ${port} is in use: pick another --port, or 0 for any$`, 'm'),
      );
      expect(result.stdout).not.toMatch(/Console:/);
    } finally {
      busy.close();
    }
  });

  it('an unknown transactions table, naming --table and where it looked', async () => {
    const result = await runCommand(
      'console',
      ['--table', 'no-such-table', '--endpoint', endpoint],
      aws,
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^console: no table no-such-table in ${endpoint}: check --table$`, 'm'),
    );
  });

  it('with exit 3 and the cause when the endpoint cannot be reached', async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;

    const result = await runCommand('console', ['--table', 't', '--endpoint', unreachable], aws);

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^console failed: .*ECONNREFUSED/m);
    expect(result.stdout).toBe('');
  });
});
