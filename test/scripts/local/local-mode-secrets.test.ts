import { execFile } from 'node:child_process';
import { access, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DeleteTableCommand,
  DynamoDBClient,
  PutItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackBody, sampleTransaction } from '../../../scripts/gateway/gateway-callback.js';
import { newEngineCredentials } from '../../../scripts/local/engine/engine-credentials.js';
import { runCommand } from '../../support/in-process-cli.js';
import {
  freePort,
  postCallback,
  type ServerProcess,
  startServer,
} from '../../support/local-cli.js';
import { localDataFolder } from '../../support/local-data-folder.js';

/**
 * Local mode as another local user or a web page meets it, and as its owner keeps using it: the
 * engine answers only to the run's credentials, kept in files only the owner can open, and every
 * tool finds them with no extra flag.
 */
const today = () => new Date().toISOString().slice(0, 10);
const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('local mode on a data folder: the engine is the owner’s alone', () => {
  const folder = localDataFolder('local-secrets-');
  const key = 'secrets-key-6f1d2c3b4a5e6f708192a3b4';
  let env: Record<string, string>;
  let server: ServerProcess;
  let endpoint: string;
  let stranger: DynamoDBClient;
  const table = 'callback-transactions';

  beforeAll(async () => {
    env = await folder.env({ CALLBACK_API_KEYS: key });
    server = await startServer(env);
    const lock = JSON.parse(await readFile(join(folder.path, 'lock.json'), 'utf8'));
    endpoint = lock.endpoint as string;
    const { accessKeyId, secretAccessKey } = newEngineCredentials();
    stranger = new DynamoDBClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId, secretAccessKey },
      maxAttempts: 1,
    });
  });
  afterAll(() => stranger.destroy());

  it('keeps the run credentials in a 0600 file in the 0700 folder', async () => {
    const file = join(folder.path, 'engine-credentials.json');

    const saved = JSON.parse(await readFile(file, 'utf8'));

    expect(await mode(folder.path)).toBe(0o700);
    expect(await mode(file)).toBe(0o600);
    expect(saved).toMatchObject({ endpoint, accessKeyId: expect.stringMatching(/^LOCALMODE/) });
    expect(server.stdout()).not.toContain(saved.secretAccessKey);
  });

  it('gives a process without them nothing: no scan, no forged item, no dropped table', async () => {
    const forged = {
      reference: { S: 'forged-ref' },
      record: { S: 'transaction' },
      amount: { N: '99999999' },
      hashResult: { S: 'verified' },
    };
    const refused = expect.objectContaining({ name: 'UnrecognizedClientException' });

    await expect(stranger.send(new ScanCommand({ TableName: table }))).rejects.toThrow(refused);
    await expect(
      stranger.send(new PutItemCommand({ TableName: table, Item: forged })),
    ).rejects.toThrow(refused);
    await expect(stranger.send(new DeleteTableCommand({ TableName: table }))).rejects.toThrow(
      refused,
    );

    // The owner's tools, with no flag: the forged item is not there, callbacks still land.
    const got = await runCommand('query', ['get', 'forged-ref', '--format', 'json'], env);
    const posted = await postCallback(
      server.url,
      key,
      callbackBody(sampleTransaction({ reference: 'after-the-attempts' }), key),
    );
    const listed = await runCommand('query', ['list', '--since', today(), '--format', 'json'], env);
    expect(got.code, got.stderr).toBe(1);
    expect(posted.status).toBe(204);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('after-the-attempts');
    expect(listed.stdout).not.toContain('forged-ref');
  });

  it('gives a web page nothing: a cross-origin preflight to the engine gets no allowance', async () => {
    const preflight = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:8080',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,x-amz-date,x-amz-target',
      },
    });

    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.runIf(process.getuid?.() === 0)(
    'keeps another OS user (uid 65534) from reading the credentials file',
    async () => {
      const read = `require('node:fs').readFileSync(${JSON.stringify(join(folder.path, 'engine-credentials.json'))})`;

      const attempt = await promisify(execFile)(process.execPath, ['-e', read], {
        uid: 65534,
        gid: 65534,
      }).then(
        () => 'read',
        (error: { stderr?: string }) => error.stderr ?? '',
      );

      expect(attempt).toMatch(/EACCES/);
    },
  );

  it('removes the credentials when it stops', async () => {
    await server.stop();

    await expect(access(join(folder.path, 'engine-credentials.json'))).rejects.toThrow();
  });
});

describe('local mode in memory: a private run folder the tools find through the banner', () => {
  let server: ServerProcess;
  let runDir: string;

  beforeAll(async () => {
    server = await startServer({ PORT: String(await freePort()) }, { args: ['--in-memory'] });
    runDir =
      /^ {2}DATA_DIR='([^']+)' npx callback-receiver simulate /m.exec(server.stdout())?.[1] ?? '';
  });

  it('keeps its key and engine credentials in a 0700 folder, the key never printed', async () => {
    const key = (await readFile(join(runDir, 'dev-api-key'), 'utf8')).trim();

    expect(await mode(runDir)).toBe(0o700);
    expect(await mode(join(runDir, 'engine-credentials.json'))).toBe(0o600);
    expect(key).toMatch(/^dev-[0-9a-f]{32}$/);
    expect(server.stdout()).not.toContain(key);
  });

  it('serves simulate and query as the banner prints them, and refuses a query without its folder', async () => {
    const simulated = await runCommand('simulate', ['--count', '3', '--json'], {
      DATA_DIR: runDir,
    });
    const listed = await runCommand('query', ['list', '--since', today(), '--format', 'json'], {
      DATA_DIR: runDir,
    });
    const endpoint = JSON.parse(await readFile(join(runDir, 'lock.json'), 'utf8')).endpoint;
    const elsewhere = await runCommand(
      'query',
      ['list', '--since', today(), '--endpoint', endpoint],
      {},
    );

    expect(simulated.code, simulated.stderr).toBe(0);
    expect(JSON.parse(simulated.stdout)).toMatchObject({ recorded: 3 });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).items).toHaveLength(3);
    expect(elsewhere.code, elsewhere.stderr).toBe(3); // a failure: no answer was read
    expect(elsewhere.stderr).toMatch(/refused this tool's credentials.*same DATA_DIR/s);
  });

  it('removes its run folder when it stops', async () => {
    await server.stop();

    await expect(access(runDir)).rejects.toThrow();
  });
});
