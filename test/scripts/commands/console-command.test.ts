import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRefusalStore } from '../../../lambda/refusals/dynamodb-refusal-store.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { startCloudFormationStandIn } from '../../support/cloudformation-stand-in.js';
import { consoleRequest } from '../../support/console-request.js';
import {
  createTestRefusalsTable,
  createTestTable,
  engineEndpoint,
  forEachEngine,
  type TestTable,
  testCredentials,
  testRegion,
} from '../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';
import { killAllServers, repoRoot, startServer } from '../../support/local-cli.js';
import { cookieOf } from '../../support/raw-http.js';
import { receiverWith } from '../../support/receiver.js';

/** What `npm run console` reads a deployed stack with: the operator's region and credentials. */
const aws = {
  AWS_REGION: testRegion,
  AWS_ACCESS_KEY_ID: testCredentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: testCredentials.secretAccessKey,
};
/** The console's own name: 128 random bits under .localhost, never 127.0.0.1 (docs/console.md). */
const ready = /^Console: (http:\/\/[0-9a-f]{32}\.localhost:\d+\/login\?token=\S+)$/m;

describe('npm run console', () => {
  afterEach(() => killAllServers());

  it('prints help ending with the exit codes and examples, and does nothing else', async () => {
    const result = await runCommand('console', ['--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--table <name>/);
    expect(result.stdout).toMatch(/--allow-actions/);
    expect(result.stdout.trimEnd()).toMatch(
      /3 {3}failed: .*\n\nExamples:\n( {2}npx callback-receiver console .+\n?){2,3}$/,
    );
    expect(result.stdout).not.toMatch(/Console: http/);
  });

  it.each([
    { args: [], line: /^console: give --stack <name> \(or --table <name>\)$/m },
    {
      args: ['--stack', 's', '--table', 't'],
      line: /^console: option '--stack <name>' cannot be used with option '--table <name>'$/m,
    },
    {
      args: ['--stack', 's', '--refusals-table', 'r'],
      line: /^console: --stack reads both table names from the stack: leave out --refusals-table$/m,
    },
  ])('refuses $args with exit 2 and one line', async ({ args, line }) => {
    const result = await runCommand('console', args, aws);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(line);
    expect(result.stdout).not.toMatch(/Console: http/);
  });

  forEachEngine((engine) => {
    describe('against a stack-like pair of tables', () => {
      let table: TestTable;
      let refusals: TestTable;
      const fields = transaction({ username: 'deployed.reader' });
      beforeAll(async () => {
        table = await createTestTable(engine);
        refusals = await createTestRefusalsTable(engine);
        const receive = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), {
          refusals: new DynamoDbRefusalStore(refusals.client, refusals.tableName),
        });
        expect((await receive(callbackEvent(signed(fields)))).statusCode).toBe(204);
        // Signed with another key: refused and kept, for the resubmit check.
        const refused = signed(transaction(), 'another-key');
        expect((await receive(callbackEvent(refused))).statusCode).toBe(403);
      });
      afterAll(async () => {
        await table?.drop();
        await refusals?.drop();
      });

      // What `npm run console --` runs (package.json), run directly: Ctrl-C reaches it alone.
      const start = async (extra: readonly string[] = [], env: Record<string, string> = {}) =>
        startServer(
          { ...aws, ...env },
          {
            command: [
              await consoleScript(),
              `--table ${table.tableName}`,
              `--refusals-table ${refusals.tableName}`,
              `--endpoint ${engineEndpoint(engine)}`,
              ...extra,
            ].join(' '),
            ready,
          },
        );

      it('serves the table read-only by default, until Ctrl-C (exit 0)', async () => {
        const server = await start();
        const login = await consoleRequest(server.url);
        expect(login.status).toBe(303);
        const origin = new URL(server.url).origin;
        const page = await consoleRequest(`${origin}/transactions`, {
          headers: { cookie: cookieOf(login) as string },
        });
        expect(page.body).toContain(String(fields.reference));
        expect(page.body).toMatch(/Deployed: table \S+ in http:\/\/127\.0\.0\.1:\d+ · read-only/);

        const exit = await server.stop('SIGINT');
        expect(exit).toEqual({ code: 0, signal: null });
      });

      it('finds both tables through --stack, from the stack outputs', async () => {
        const cloudFormation = await startCloudFormationStandIn('CallbackReceiver', {
          TableName: table.tableName,
          RefusalsTableName: refusals.tableName,
        });
        try {
          const server = await startServer(
            { ...aws, AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.endpoint },
            {
              command: [
                await consoleScript(),
                '--stack CallbackReceiver',
                `--endpoint ${engineEndpoint(engine)}`,
              ].join(' '),
              ready,
            },
          );
          const login = await consoleRequest(server.url);
          const page = await consoleRequest(`${new URL(server.url).origin}/transactions`, {
            headers: { cookie: cookieOf(login) as string },
          });
          expect(page.body).toContain(String(fields.reference));
          expect(page.body).toContain(`stack CallbackReceiver, table ${table.tableName}`);
          // --stack names the metrics too: the Activity view has a source (here unreachable).
          const activity = await consoleRequest(`${new URL(server.url).origin}/activity`, {
            headers: { cookie: cookieOf(login) as string },
          });
          expect(activity.body).not.toMatch(/No activity figures in this console/);
          await server.stop('SIGINT');

          const missing = await runCommand('console', ['--stack', 'Nope'], {
            ...aws,
            AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.endpoint,
          });
          expect(missing.code).toBe(2);
          expect(missing.stderr).toMatch(/^console: no stack Nope in this region/m);
        } finally {
          await cloudFormation.close();
        }
      });

      it('allows actions only with --allow-actions', async () => {
        const server = await start(['--allow-actions']);
        expect(server.stdout()).toMatch(/settle and resubmit allowed/);
        const login = await consoleRequest(server.url);
        const page = await consoleRequest(`${new URL(server.url).origin}/transactions`, {
          headers: { cookie: cookieOf(login) as string },
        });
        expect(page.body).not.toMatch(/read-only/);
      });

      it('offers resubmit only with a receiver: --url and a key from CALLBACK_API_KEY', async () => {
        const refusalPage = async (server: Awaited<ReturnType<typeof start>>) => {
          const origin = new URL(server.url).origin;
          const cookie = cookieOf(await consoleRequest(server.url)) as string;
          const list = await consoleRequest(`${origin}/refusals`, { headers: { cookie } });
          const path = /href="(\/refusals\/[0-9a-f]{64})"/.exec(list.body)?.[1] as string;
          expect(path).toBeDefined();
          return {
            path,
            body: (await consoleRequest(`${origin}${path}`, { headers: { cookie } })).body,
          };
        };
        const without = await start(['--allow-actions']);
        expect((await refusalPage(without)).body).toMatch(/was given none/);
        await without.stop();

        const withReceiver = await start(
          ['--allow-actions', '--url', 'http://127.0.0.1:9/callback'],
          { CALLBACK_API_KEY: 'console-command-key' },
        );
        const { path, body } = await refusalPage(withReceiver);
        expect(body).toContain(`action="${path}/resubmit"`);
        expect(body).not.toContain('console-command-key');
      });

      it('names the option to fix when a table does not exist, exit 2, no link printed', async () => {
        const result = await runCommand(
          'console',
          ['--table', table.tableName, '--endpoint', engineEndpoint(engine)],
          aws,
        );
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(
          new RegExp(`^console: no table ${table.tableName}-refusals in .*--refusals-table`, 'm'),
        );
        expect(result.stdout).not.toMatch(/Console:/);
      });
    });
  });
});

async function consoleScript(): Promise<string> {
  const { scripts } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: { console: string };
  };
  return scripts.console;
}
