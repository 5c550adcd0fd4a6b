import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataLock } from '../../../scripts/local/data-lock.js';
import { runCommand } from '../../support/in-process-cli.js';
import { freePort } from '../../support/local-cli.js';

/**
 * `npm start` refusing to start: each refusal is one line on stderr and an exit code, before a
 * server or its data exists. Run in this process: none of them starts a server.
 */
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'start-refusals-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start refuses', () => {
  it('an unknown HASH_MODE with exit 2, listing the modes', async () => {
    const result = await runCommand('start', ['--in-memory'], { HASH_MODE: 'sometimes' });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^start: HASH_MODE must be one of .*if-present.*, got sometimes$/m,
    );
    expect(result.stdout).toBe('');
  });

  it('a console port that is not a number, with exit 2 naming the variable', async () => {
    const result = await runCommand('start', ['--in-memory'], { CONSOLE_PORT: 'eighty' });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'the console port (--console-port or CONSOLE_PORT) must be 0-65535, got eighty',
    );
  });

  it('--forward-events to another machine with exit 2', async () => {
    const result = await runCommand(
      'start',
      ['--in-memory', '--forward-events', 'https://events.example.com/in'],
      {},
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^start: --forward-events https:\/\/events\.example\.com\/in is not on this machine/m,
    );
  });

  it('--forward-events against a table on AWS, which it would read every second, with exit 2', async () => {
    const result = await runCommand(
      'start',
      ['--in-memory', '--forward-events', 'http://127.0.0.1:9000/events'],
      { AWS_ENDPOINT_URL_DYNAMODB: 'https://dynamodb.eu-west-1.amazonaws.com' },
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--forward-events reads the table continuously: use it with a local engine, not AWS_ENDPOINT_URL_DYNAMODB on AWS',
    );
  });

  it('a HOST that is not an address of this machine, with exit 3 saying so', async () => {
    const result = await runCommand('start', ['--in-memory'], {
      HOST: '203.0.113.9',
      PORT: String(await freePort()),
    });

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /^start failed: .*EADDRNOTAVAIL.*: HOST is not an address of this machine\.\n$/,
    );
  });

  it('a data folder another server holds, with exit 3 naming its pid and what to do', async () => {
    const lock = await acquireDataLock(join(dataDir, 'lock.json'), 'server');
    try {
      const result = await runCommand('start', ['--no-console'], { DATA_DIR: dataDir, PORT: '0' });

      expect(result.code).toBe(3);
      expect(result.stderr).toBe(
        `start failed: The local data folder is in use by a running server (pid ${process.pid}, ` +
          `lock file ${join(dataDir, 'lock.json')}). Stop it first, or give this one its own DATA_DIR.\n`,
      );
      expect(result.stdout).toBe('');
    } finally {
      await lock.release();
    }
  });
});
