import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Summary } from '../../../scripts/gateway/summary.js';
import { runCommand } from '../../support/in-process-cli.js';
import { cleanEnv, repoRoot } from '../../support/local-cli.js';
import { scriptedReceiver } from '../gateway/support/scripted-receiver.js';

/** `npm run simulate` as a user runs it, against a receiver that answers as the test says. */

const unauthorized =
  "401 Missing or unknown API key: check the key (--key-file, CALLBACK_API_KEY): it must be one of the receiver's CALLBACK_API_KEYS";

const refusal = {
  status: 401,
  headers: { 'content-type': 'application/problem+json' },
  body: '{"type":"urn:callback-receiver:problem:unauthorized","title":"Missing or unknown API key"}',
};

describe('npm run simulate', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it.each(['not-a-url', 'ftp://example.com/callback'])(
    'refuses --url %s with exit 2 and one line saying why',
    async (url) => {
      const result = await runCommand('simulate', ['--url', url, '--key', 'k'], {});

      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^simulate: --url must be an (absolute )?http:\/\/ or https:\/\/ URL, got /m,
      );
    },
  );

  it('exits 1 when deliveries are refused, each reason counted once in --json', async () => {
    const refusing = await scriptedReceiver([refusal]);
    server = refusing.server;

    const result = await runCommand(
      'simulate',
      ['--url', refusing.url, '--key', 'k', '--count', '4', '--seed', 's', '--json'],
      {},
    );

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout) as Summary).toMatchObject({
      url: refusing.url,
      seed: 's',
      sent: 4,
      attempts: 4,
      retries: 0,
      recorded: 0,
      rejected: 4,
      failed: 0,
      statuses: { '401': 4 },
      problems: { [unauthorized]: 4 },
    });
  });

  it('exits 3, not 1, when a delivery is still failing after its attempts', async () => {
    const failing = await scriptedReceiver([{ status: 500 }]);
    server = failing.server;

    const result = await runCommand(
      'simulate',
      ['--url', failing.url, '--key', 'k', '--count', '2', '--max-attempts', '1', '--json'],
      {},
    );

    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout) as Summary).toMatchObject({ failed: 2, rejected: 0 });
  });

  it('with the `--` forgotten, says npm kept the options and how to pass them', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((done) => {
      execFile(
        'npm',
        ['run', '-s', 'simulate', '--count', '5'],
        { cwd: repoRoot, env: cleanEnv({}) },
        (error, _stdout, stderr) => done({ code: error ? Number(error.code) : 0, stderr }),
      );
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'simulate: too many arguments. Expected 0 arguments but got 1: 5.\n' +
        'Try: npm run simulate -- --help\n' +
        'Options go after --, else npm keeps them (it took --count): npm run simulate -- --count …\n',
    );
  });

  it('prints the summary for a person, with each failure explained under it', async () => {
    const refusing = await scriptedReceiver([refusal]);
    server = refusing.server;

    const result = await runCommand(
      'simulate',
      ['--url', refusing.url, '--key', 'k', '--count', '3', '--seed', 'text'],
      {},
    );

    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `^Sent 3 callbacks to ${refusing.url} in [\\d.]+ s \\(\\d+/s, concurrency 10, seed text\\)$`,
        'm',
      ),
    );
    expect(result.stdout).toContain('\n  planned      3 new, 0 redelivered, 0 conflicting\n');
    expect(result.stdout).toContain('\n  rejected     3\n');
    expect(result.stdout).toContain('\n  statuses     401 ×3\n');
    expect(result.stdout).toContain(`\n  ×3  ${unauthorized}\n`);
  });

  it('reads the key from --key-file or CALLBACK_API_KEY, and warns in one line about --key', async () => {
    const accepting = await scriptedReceiver([{ status: 204 }]);
    server = accepting.server;
    const folder = await mkdtemp(join(tmpdir(), 'simulate-key-'));
    const keyFile = join(folder, 'key');
    await writeFile(keyFile, 'key-from-file\n', { mode: 0o600 });
    const send = (args: string[], env: Record<string, string> = {}) =>
      runCommand('simulate', ['--url', accepting.url, '--count', '1', '--json', ...args], env);

    const fromFile = await send(['--key-file', keyFile]);
    const fromEnvironment = await send([], { CALLBACK_API_KEY: 'key-from-environment' });
    const typed = await send(['--key', 'key-typed-in']);
    const absent = await send(['--key-file', join(folder, 'absent')]);

    expect([fromFile.code, fromEnvironment.code, typed.code]).toEqual([0, 0, 0]);
    expect(accepting.keys()).toEqual(['key-from-file', 'key-from-environment', 'key-typed-in']);
    expect(fromFile.stderr + fromEnvironment.stderr).toBe('');
    expect(typed.stderr).toBe(
      "simulate: warning: --key leaves the key in shell history and in other users' ps; use --key-file <path> or CALLBACK_API_KEY instead\n",
    );
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(/^simulate: cannot read the key file .*absent \(ENOENT\)$/m);
  });

  it('Ctrl-C prints the summary so far (not sent, in flight) and exits 130', async () => {
    const hanging = await scriptedReceiver('hang');
    server = hanging.server;
    const args = [
      '--url',
      hanging.url,
      '--key',
      'k',
      '--count',
      '5',
      '--concurrency',
      '2',
      '--json',
    ];
    const child = spawn(
      'node_modules/.bin/tsx',
      ['scripts/commands/simulate-command.ts', ...args],
      {
        cwd: repoRoot,
        env: cleanEnv({}),
        detached: true,
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    // Both requests are in flight once the receiver has seen them.
    while (hanging.requests() < 2) await new Promise((done) => setTimeout(done, 50));
    const exited = once(child, 'exit');

    process.kill(-(child.pid as number), 'SIGINT');

    const [code] = await exited;
    expect(code).toBe(130);
    expect(JSON.parse(stdout) as Summary).toMatchObject({
      sent: 0,
      interrupted: { notSent: 3, inFlight: 2 },
    });
  });
});
