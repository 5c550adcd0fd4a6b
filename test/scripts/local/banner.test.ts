import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { banner } from '../../../scripts/local/banner.js';
import { type LocalServer, startLocalServer } from '../../../scripts/local/server.js';
import { engineEndpoint } from '../../support/engines.js';

/**
 * What `npm start` prints once it answers: the banner of a real local server in each setup an
 * operator meets (in memory, a data folder, keys from the environment, another engine, events,
 * the console, bound off loopback), and its curl line pasted into a shell.
 */

const run = promisify(execFile);
const setup = { hashMode: 'if-present', exposed: false } as const;

/** The line under "Record a callback:", as an operator would copy it. */
function curlLineOf(text: string): string {
  const line = /^Record a callback:\n {2}(.+)$/m.exec(text)?.[1];
  if (line === undefined) throw new Error(`No curl line in:\n${text}`);
  return line;
}

/** Pastes `line` into a POSIX shell and returns curl's status line and outcome header. */
async function paste(line: string, cwd: string, env: Record<string, string> = {}) {
  const { stdout } = await run('sh', ['-c', line], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
  });
  return {
    status: /^HTTP\/1\.1 (\d+)/.exec(stdout)?.[1],
    outcome: /^x-callback-outcome: (\S+)/im.exec(stdout)?.[1],
  };
}

describe('the banner npm start prints', () => {
  let folder: string;
  const servers: LocalServer[] = [];
  const start = async (options: Parameters<typeof startLocalServer>[0]) => {
    const server = await startLocalServer({ port: 0, ...options });
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'banner-'));
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('prints a curl line that records a signed callback when pasted, a duplicate when pasted again', async () => {
    const server = await start({ dataDir: ':memory:' });
    const text = banner(server, setup, folder);
    const line = curlLineOf(text);

    expect(await paste(line, folder)).toEqual({ status: '204', outcome: 'recorded' });
    expect(await paste(line, folder)).toEqual({ status: '204', outcome: 'duplicate' });
    // The key reaches curl through its standard input, read from the key file: never in the line.
    expect(line).not.toContain(server.apiKey);
    expect(line).toContain(`cat '${join(server.runDir, 'dev-api-key')}'`);
  });

  it('says an in-memory run keeps nothing and gives the tools its private folder', async () => {
    const server = await start({ dataDir: ':memory:' });
    const text = banner(server, setup, folder);

    expect(text).toContain(`URL        POST ${server.url}`);
    expect(text).toContain(
      `Data       in memory, gone when the server stops (run files in ${server.runDir}/)`,
    );
    expect(text).toContain(`generated for this run, in ${join(server.runDir, 'dev-api-key')}`);
    expect(text).toContain(`DATA_DIR='${server.runDir}' npx callback-receiver simulate`);
    expect(text).toContain('Table      callback-transactions (created now)');
    expect(text).toContain('Events     not forwarded (--forward-events <url>, docs/events.md)');
    expect(text).not.toContain('Console:');
    expect(text).not.toContain(server.apiKey);
  });

  it('names the key file relative to the working folder, and says when a restart reuses it', async () => {
    const dataDir = join(folder, 'data');
    const first = await start({ dataDir });
    const firstKey = first.apiKey;
    const firstText = banner(first, { ...setup, dataDirSetting: 'data' }, folder);
    await first.stop();
    const again = await start({ dataDir });
    const againText = banner(again, { ...setup, dataDirSetting: 'data' }, folder);

    expect(firstText).toContain('development key generated now, saved in data/dev-api-key');
    expect(firstText).toContain('Data       data/ (embedded DynamoDB, kept across restarts)');
    expect(firstText).toContain("DATA_DIR='data' npx callback-receiver query list --since");
    expect(firstText).toContain("cat 'data/dev-api-key'");
    expect(again.apiKey).toBe(firstKey);
    expect(againText).toContain('development key in data/dev-api-key');
    expect(againText).toContain('Table      callback-transactions\n');
    // The curl line works from the folder it names its key file from.
    expect(await paste(curlLineOf(againText), folder)).toEqual({
      status: '204',
      outcome: 'recorded',
    });
  });

  it('shows the data folder as . when started inside it, and no DATA_DIR when none was given', async () => {
    const dataDir = join(folder, 'here');
    const server = await start({ dataDir });
    const text = banner(server, setup, dataDir);

    expect(text).toContain('Data       ./ (embedded DynamoDB, kept across restarts)');
    expect(text).toContain('  npx callback-receiver simulate --count 200 --duplicates 0.1');
  });

  it('with keys from the environment, on another engine: its address, --endpoint, the key count', async () => {
    const endpoint = engineEndpoint('dynalite');
    const tableName = `banner-${randomUUID()}`;
    const server = await start({
      dataDir: ':memory:',
      apiKeys: 'first-banner-key,second-banner-key',
      endpoint,
      tableName,
    });
    const text = banner(server, { ...setup, hashMode: 'required' }, folder);

    expect(text).toContain(`Data       DynamoDB at ${endpoint} (AWS_ENDPOINT_URL_DYNAMODB)`);
    expect(text).toContain('from CALLBACK_API_KEYS (2 keys accepted; the first is shown)');
    expect(text).toContain(`Table      ${tableName} (created now)`);
    expect(text).toContain('Hash mode  required');
    expect(text).toMatch(/query list --since \d{4}-\d\d-\d\d --endpoint http:\/\//);
    expect(text).toContain('(the tools read the key from CALLBACK_API_KEYS or CALLBACK_API_KEY');
    expect(text).toContain('API key    firs… (masked)');
    expect(text).not.toContain('first-banner-key');
    // The pasted line takes the first key from the shell's CALLBACK_API_KEYS, as the server does.
    const line = curlLineOf(text);
    expect(line).toContain(`"\${CALLBACK_API_KEYS%%,*}"`);
    expect(
      await paste(line, folder, { CALLBACK_API_KEYS: 'first-banner-key,second-banner-key' }),
    ).toEqual({ status: '204', outcome: 'recorded' });
  });

  it('names one environment key without a count', async () => {
    const server = await start({ dataDir: ':memory:', apiKeys: 'only-banner-key' });
    const text = banner(server, setup, folder);

    expect(text).toContain('from CALLBACK_API_KEYS\n');
    expect(text).not.toContain('keys accepted');
  });

  it('off loopback prints no curl line and masks the key', async () => {
    const server = await start({ dataDir: ':memory:', apiKeys: 'exposed-banner-key-0001' });
    const text = banner(server, { ...setup, exposed: true }, folder);

    expect(text).not.toContain('Record a callback:');
    expect(text).not.toContain('exposed-banner-key-0001');
    expect(text).toContain('In another shell:');
  });

  it('tells where events go, the signing secret, and what an earlier run left', async () => {
    const dataDir = join(folder, 'events');
    const url = 'http://127.0.0.1:9/events';
    const server = await start({
      dataDir,
      apiKeys: 'events-banner-key',
      forwardEvents: { url, log: () => {} },
    });
    const text = banner(server, setup, folder);

    expect(text).toContain(`Events     POSTed to ${url}`);
    expect(text).toContain('signed; a new secret in events/');
    expect(text).not.toContain('owed by the last run');
    // What a previous run left: the figures the forwarding found at its start.
    const events = server.events as NonNullable<LocalServer['events']>;
    const left = banner(
      { ...server, events: { ...events, newSecret: false, resumed: 3, deadLettersBefore: 2 } },
      setup,
      folder,
    );
    expect(left).toContain('signed; the kept secret in events/');
    expect(left).toMatch(/3 owed by the last run, sent first; 2 dead letter\(s\) in events\//);
  });

  it('prints the console sign-in link when the console is served', async () => {
    const dataDir = join(folder, 'console');
    const server = await start({ dataDir, apiKeys: 'console-banner-key', console: {} });
    const text = banner(server, setup, folder);

    expect(text).toMatch(/^Console: http:\/\/[0-9a-f]{32}\.localhost:\d+\/login\?token=\S+$/m);
    expect(text).toContain('(in a browser on this machine; the link signs in once');
  });
});
