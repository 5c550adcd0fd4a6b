import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callbackBody } from '../../scripts/shared/gateway-callback.js';
import {
  dataFolder,
  freePort,
  parseExact,
  repoRoot,
  runScript,
  startServer,
} from './support/local-cli.js';

/**
 * Stopping under load: requests in flight are answered, and every callback that got a 204 is in
 * the data folder afterwards.
 */
describe('stopping local mode', () => {
  const folder = dataFolder('local-shutdown-');
  const key = 'shutdown-key';

  it('keeps every acknowledged callback when Ctrl-C arrives mid-load', async () => {
    const env = { DATA_DIR: folder.path, CALLBACK_API_KEYS: key, PORT: String(await freePort()) };
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
    const listed = await runScript(
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
      parseExact<{ reference: string }[]>(listed.stdout).map((item) => item.reference),
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
    const server = await startServer(
      { DATA_DIR: folder.path, CALLBACK_API_KEYS: key, PORT: String(await freePort()) },
      { command: scripts.start },
    );

    const exit = await server.stop('SIGTERM');

    expect(exit).toEqual({ code: 0, signal: null });
  });
});
