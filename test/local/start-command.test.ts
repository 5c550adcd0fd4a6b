import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dataFolder,
  freePort,
  killAllServers,
  runScript,
  startServer,
} from './support/local-cli.js';

/** `npm start` as a user drives it: flags through npm, signals, other shells, other hosts. */
describe('npm start', () => {
  const folder = dataFolder('start-command-');
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
    const env = { DATA_DIR: folder.path, PORT: String(await freePort()) };
    const server = await startServer(env);

    process.kill(server.child.pid as number, 'SIGTERM');
    const exit = await server.stop('SIGCONT');

    expect(exit.code).toBe(0);
    expect(server.stderr()).toMatch(/Stopped\./);
    expect(await folderIsFree()).toBe(true);
  });

  it('stops, and frees the data folder, when SIGTERM reaches the server process alone', async () => {
    const env = { DATA_DIR: folder.path, PORT: String(await freePort()) };
    const server = await startServer(env);
    const { pid } = JSON.parse(await readFile(lockFile(), 'utf8')) as { pid: number };
    expect(pid).not.toBe(server.child.pid);

    process.kill(pid, 'SIGTERM');
    const exit = await server.stop('SIGCONT');

    expect(exit.code).toBe(0);
    expect(await folderIsFree()).toBe(true);
  });

  it('stops when npm is killed outright', async () => {
    const env = { DATA_DIR: folder.path, PORT: String(await freePort()) };
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
    const line = /^ {2}DATA_DIR=(\S+) npm run simulate -- (.*)$/m.exec(server.stdout());

    // Another shell: neither DATA_DIR nor the key set there.
    const guessed = await runScript('simulate', ['--count', '3'], {});
    const asPrinted = await runScript(
      'simulate',
      (line?.[2] ?? '').replaceAll("'", '').split(' '),
      {
        DATA_DIR: (line?.[1] ?? '').replaceAll("'", ''),
      },
    );
    const keyless = await runScript('simulate', ['--count', '3'], { DATA_DIR: customDir });

    expect(line?.[2]).toContain(`--key '${key}'`);
    expect(asPrinted.code, asPrinted.stderr).toBe(0);
    expect(asPrinted.stdout).toContain(server.url);
    expect(guessed.code).not.toBe(0);
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toMatch(/takes its keys from its CALLBACK_API_KEYS: pass --key/);
  });

  it('refuses a bad port with exit 2 and one line saying why', async () => {
    const result = await runScript('start', ['--port', '70000'], {});

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^start: the port \(--port or PORT\) must be 0-65535, got 70000$/m,
    );
  });
});
