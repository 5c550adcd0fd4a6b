import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../../../scripts/local/server.js';
import { runCommand } from '../../support/in-process-cli.js';
import { freePort } from '../../support/local-cli.js';

/**
 * Where `npm run simulate` sends and with which key when not told (a running server, else
 * PORT), what it says when it has no key, and the bytes --utf8 puts on the wire.
 */
let folder: string;
let local: LocalServer | undefined;
let receiver: Server | undefined;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'simulate-target-'));
});
afterEach(async () => {
  await local?.stop();
  receiver?.closeAllConnections();
  receiver?.close();
  [local, receiver] = [undefined, undefined];
  await rm(folder, { recursive: true, force: true });
});

const giveKey = '--key-file <path> or CALLBACK_API_KEY';

describe('npm run simulate without a key', () => {
  it('with no server running, names every way to give one, exit 2', async () => {
    const result = await runCommand('simulate', ['--count', '1'], {
      DATA_DIR: folder,
      PORT: String(await freePort()),
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^simulate: no key: give ${giveKey.replace(/[<>]/g, '.')}, set CALLBACK_API_KEYS, or start the server once \\(npm start\\) so it saves its dev key$`,
        'm',
      ),
    );
    expect(result.stdout).toBe('');
  });

  it('against a server keyed by CALLBACK_API_KEYS, says to set them here too, exit 2', async () => {
    local = await startLocalServer({ port: 0, dataDir: folder, apiKeys: 'server-only-key' });

    const result = await runCommand('simulate', ['--count', '1'], { DATA_DIR: folder });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `simulate: the running server takes its keys from its CALLBACK_API_KEYS: set CALLBACK_API_KEYS here too, or give ${giveKey}`,
    );
  });

  it('for a URL on another machine, asks for the key that receiver accepts, exit 2', async () => {
    const result = await runCommand(
      'simulate',
      ['--count', '1', '--url', 'https://receiver.example.com/callback'],
      { DATA_DIR: folder },
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `simulate: give the API key the receiver at this URL accepts: ${giveKey}`,
    );
  });
});

describe('npm run simulate --utf8', () => {
  it('sends non-ASCII as raw UTF-8 rather than \\u escapes', async () => {
    const bodies: string[] = [];
    receiver = createServer(async (request, response) => {
      bodies.push(await text(request));
      response.writeHead(204).end();
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
    const args = ['--count', '5', '--seed', 'utf8-wire', '--url', url, '--json'];
    const env = { CALLBACK_API_KEY: 'utf8-key' };

    const escaped = await runCommand('simulate', args, env);
    const raw = await runCommand('simulate', [...args, '--utf8'], env);

    expect([escaped.code, raw.code]).toEqual([0, 0]);
    const [escapedBodies, rawBodies] = [bodies.slice(0, 5), bodies.slice(5)];
    expect(escapedBodies.join('')).toMatch(/\\u00[0-9a-f]{2}/);
    const nonAscii = /[^ -~]/;
    expect(escapedBodies.join('')).not.toMatch(nonAscii);
    expect(rawBodies.join('')).toMatch(nonAscii);
    // The same callbacks (same seed), only the encoding differs.
    expect(rawBodies.map((body) => JSON.parse(body))).toEqual(
      escapedBodies.map((body) => JSON.parse(body)),
    );
  });
});
