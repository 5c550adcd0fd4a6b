import { readdir, readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callbackBody } from '../../../scripts/gateway/gateway-callback.js';
import type { Summary } from '../../../scripts/gateway/summary.js';
import { runCommand } from '../../support/in-process-cli.js';
import {
  freePort,
  killAllServers,
  parseExact,
  repoRoot,
  startServer,
} from '../../support/local-cli.js';
import { localDataFolder } from '../../support/local-data-folder.js';

/** `npm start` as a user drives it: flags through npm, signals, other shells, other hosts. */
describe('npm start', () => {
  const folder = localDataFolder('start-command-');
  afterEach(() => killAllServers());

  const lockFile = () => join(folder.path, 'lock.json');
  const folderIsFree = async () => {
    const left = await readdir(folder.path);
    return !left.includes('lock.json') && !left.includes('.lock');
  };

  it('takes flags after a second `--`: npm start -- --in-memory -- --port <n>', async () => {
    const port = await freePort();

    const server = await startServer({}, { args: ['--in-memory', '--', '--port', String(port)] });

    expect(server.url).toBe(`http://127.0.0.1:${port}/callback`);
    expect(server.stdout()).toMatch(/in memory, gone when the server stops/);
  });

  it('stops, and frees the data folder, when SIGTERM reaches npm alone', async () => {
    const env = await folder.env();
    const server = await startServer(env);

    process.kill(server.child.pid as number, 'SIGTERM');
    const exit = await server.stop('SIGCONT');

    expect(exit.code).toBe(0);
    expect(server.stderr()).toMatch(/Stopped\./);
    expect(await folderIsFree()).toBe(true);
  });

  it('stops, and frees the data folder, when SIGTERM reaches the server process alone', async () => {
    const env = await folder.env();
    const server = await startServer(env);
    const { pid } = JSON.parse(await readFile(lockFile(), 'utf8')) as { pid: number };
    expect(pid).not.toBe(server.child.pid);

    process.kill(pid, 'SIGTERM');
    const exit = await server.stop('SIGCONT');

    expect(exit.code).toBe(0);
    expect(await folderIsFree()).toBe(true);
  });

  it('stops when npm is killed outright', async () => {
    const env = await folder.env();
    const server = await startServer(env);
    const { pid } = JSON.parse(await readFile(lockFile(), 'utf8')) as { pid: number };

    process.kill(server.child.pid as number, 'SIGKILL');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 15_000;
    while (alive() && Date.now() < deadline) await new Promise((done) => setTimeout(done, 200));

    expect(alive()).toBe(false);
    expect(await folderIsFree()).toBe(true);
  });

  it('off loopback: warns, masks the key, and keeps the data folder to its owner', async () => {
    const exposedDir = join(folder.path, 'exposed');
    const env = { DATA_DIR: exposedDir, PORT: String(await freePort()), HOST: '0.0.0.0' };

    const server = await startServer(env);
    await server.stop();

    const key = (await readFile(join(exposedDir, 'dev-api-key'), 'utf8')).trim();
    expect(server.stderr()).toMatch(/^Warning: HOST=0\.0\.0\.0 serves plain HTTP to the network/m);
    expect(server.stdout()).not.toContain(key);
    expect(server.stdout()).toMatch(/API key +dev-… \(masked/);
    expect((await stat(exposedDir)).mode & 0o777).toBe(0o700);
    const files = await readdir(exposedDir, { recursive: true });
    for (const file of files) {
      const mode = (await stat(join(exposedDir, file))).mode;
      expect({ file, mode: mode & 0o077 }).toEqual({ file, mode: 0 });
    }
  });

  it("with a custom DATA_DIR and key, the banner's simulate line reaches this server", async () => {
    const customDir = join(folder.path, 'custom');
    const key = 'custom-key-0123456789abcdef';
    const env = { DATA_DIR: customDir, PORT: String(await freePort()), CALLBACK_API_KEYS: key };
    const server = await startServer(env);
    const line = /^ {2}DATA_DIR=(\S+) npx callback-receiver simulate (.*)$/m.exec(server.stdout());

    // Another shell: neither DATA_DIR nor the key set there.
    const guessed = await runCommand('simulate', ['--count', '3'], {});
    // As printed, in a shell where CALLBACK_API_KEYS is set too, as the banner says.
    const asPrinted = await runCommand(
      'simulate',
      (line?.[2] ?? '').replaceAll("'", '').split(' '),
      { DATA_DIR: (line?.[1] ?? '').replaceAll("'", ''), CALLBACK_API_KEYS: key },
    );
    const keyless = await runCommand('simulate', ['--count', '3'], { DATA_DIR: customDir });

    expect(server.stdout()).not.toContain(key);
    expect(server.stdout()).toMatch(/read the key from CALLBACK_API_KEYS or CALLBACK_API_KEY/);
    expect(line?.[2]).not.toMatch(/--key/);
    expect(asPrinted.code, asPrinted.stderr).toBe(0);
    expect(asPrinted.stdout).toContain(server.url);
    expect(guessed.code).not.toBe(0);
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toMatch(
      /takes its keys from its CALLBACK_API_KEYS: set CALLBACK_API_KEYS here too, or give --key-file <path> or CALLBACK_API_KEY/,
    );
  });

  it('refuses a bad port with exit 2 and one line saying why', async () => {
    const result = await runCommand('start', ['--port', '70000'], {});

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^start: the port \(--port or PORT\) must be 0-65535, got 70000$/m,
    );
  });

  it('on a busy port fails with exit 3 in one line, before making the data folder or a key', async () => {
    const busy = createServer();
    await new Promise<void>((listening) => busy.listen(0, '127.0.0.1', listening));
    const { port } = busy.address() as AddressInfo;
    const dataDir = join(folder.path, 'never-made');
    try {
      const result = await runCommand('start', [], { DATA_DIR: dataDir, PORT: String(port) });

      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(
        new RegExp(
          `^start failed: .*EADDRINUSE.*${port}: set PORT to a free port \\(or 0 for any\\)\\.\n$`,
        ),
      );
      await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      busy.close();
    }
  });
});

/**
 * Stopping under load: requests in flight are answered, and every callback that got a 204 is in
 * the data folder afterwards.
 */
describe('stopping local mode', () => {
  const folder = localDataFolder('local-shutdown-');
  const key = 'shutdown-key';

  it('keeps every acknowledged callback when Ctrl-C arrives mid-load', async () => {
    const env = await folder.env({ CALLBACK_API_KEYS: key });
    const server = await startServer(env);
    const acknowledged: string[] = [];
    let sent = 0;
    let stopping = false;
    const sender = async () => {
      // Keep sending until the server stops answering; only 204s count as acknowledged.
      while (true) {
        const reference = `shutdown-${sent++}`;
        const body = callbackBody(
          {
            id: String(sent),
            username: 'load.user',
            firstName: 'Gülşen',
            lastName: 'Yılmaz',
            amount: '1000',
            currency: 'TRY',
            type: 'Deposit',
            status: 'Confirm',
            message: '',
            reference,
          },
          key,
        );
        try {
          const answer = await fetch(server.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': key },
            body,
          });
          await answer.arrayBuffer();
          if (answer.status === 204) acknowledged.push(reference);
        } catch {
          if (stopping) return;
        }
      }
    };
    const senders = Array.from({ length: 12 }, sender);
    while (acknowledged.length < 150) await new Promise((done) => setTimeout(done, 10));

    stopping = true;
    await server.stop('SIGINT');
    await Promise.all(senders);

    expect(server.stderr()).toMatch(/Stopped\./);
    const listed = await runCommand(
      'query',
      [
        'list',
        '--since',
        new Date(Date.now() - 3_600_000).toISOString(),
        '--limit',
        '100000',
        '--format',
        'json',
      ],
      env,
    );
    expect(listed.code, listed.stderr).toBe(0);
    const stored = new Set(
      parseExact<{ items: { reference: string }[] }>(listed.stdout).items.map(
        (item) => item.reference,
      ),
    );
    const lost = acknowledged.filter((reference) => !stored.has(reference));
    expect(lost).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);
  });

  it('the start command exits 0 on SIGTERM', async () => {
    // What `npm start` runs, run directly.
    const { scripts } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const server = await startServer(await folder.env({ CALLBACK_API_KEYS: key }), {
      command: scripts.start,
    });

    const exit = await server.stop('SIGTERM');

    expect(exit).toEqual({ code: 0, signal: null });
  });
});

/** A fresh clone: no keys configured, nothing but `npm start` and `npm run simulate`. */
describe('local mode without configuration', () => {
  const folder = localDataFolder('local-zero-');

  it('generates a development key, keeps it across restarts, and the simulator finds both URL and key', async () => {
    const env = await folder.env();
    const first = await startServer(env);

    const simulated = await runCommand('simulate', ['--count', '20', '--json'], env);
    await first.stop();
    const second = await startServer(env);
    await second.stop();

    const key = (await readFile(join(folder.path, 'dev-api-key'), 'utf8')).trim();
    expect(key).toMatch(/^dev-[0-9a-f]{32}$/);
    for (const server of [first, second]) {
      expect(server.stdout()).not.toContain(key);
      expect(server.stdout()).toMatch(/API key +dev-… \(masked\)/);
    }
    expect(first.stdout()).toMatch(/generated now, saved in \S+dev-api-key/);
    expect(simulated.code, simulated.stderr).toBe(0);
    expect(simulated.stderr).toBe('');
    expect(JSON.parse(simulated.stdout) as Summary).toMatchObject({ url: first.url, recorded: 20 });
    expect(second.stdout()).toMatch(/development key in \S+dev-api-key/);
  });
});
