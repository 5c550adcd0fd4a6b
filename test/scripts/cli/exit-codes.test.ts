import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../support/in-process-cli.js';
import { cleanEnv, freePort, repoRoot } from '../../support/local-cli.js';

/**
 * The exit codes every command shares (docs/tools.md): a failure is 3, never 1 (differences
 * found), and every `--help` ends with the codes without doing any of the command's work.
 */

function run(file: string, args: readonly string[], npm = false) {
  const [command, argv] = npm
    ? ['npm', ['run', '-s', file, ...args]]
    : [join(repoRoot, 'node_modules/.bin/tsx'), [file, ...args]];
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      command,
      argv,
      { cwd: repoRoot, env: cleanEnv({}), timeout: 90_000 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('a failure exits 3, never 1', () => {
  it('reconcile against an unreachable table exits 3 with one line, not 1', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const report = join(await mkdtemp(join(tmpdir(), 'exit-codes-')), 'report.csv');
    await writeFile(report, 'reference,amount,currency,type,status\nr-1,100,TRY,Deposit,Confirm\n');

    const result = await runCommand(
      'reconcile',
      [report, '--since', '2026-03-14', '--until', '2026-03-15'],
      { AWS_ENDPOINT_URL_DYNAMODB: endpoint, TABLE_NAME: 'transactions' },
    );

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^reconcile failed: connect ECONNREFUSED .+\n$/);
    expect(result.stdout).toBe('');
  }, 60_000);

  it('query against an unreachable table exits 3', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;

    const result = await runCommand('query', ['get', 'any-reference'], {
      AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    });

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^query failed: .+\n$/);
  }, 60_000);

  it('settle against an unreachable table exits 3, not the 2 of a refusal', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;

    const result = await runCommand(
      'settle',
      ['any-reference', '--accept', 'stored', '--reason', 'OPS-1'],
      { AWS_ENDPOINT_URL_DYNAMODB: endpoint },
    );

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^settle failed: .+\n$/);
  }, 60_000);

  it.each(['throw', 'reject'])(
    'a crash outside the action (%s) exits 3 in one line, not Node’s 1 and its stack',
    async (how) => {
      // A process of its own: what is checked is how that process exits after a crash.
      const result = await run('test/support/crashing-command.ts', [how]);

      expect(result.code).toBe(3);
      expect(result.stderr).toBe('crash failed: the connection was lost\n');
    },
    60_000,
  );
});

describe('--help', () => {
  const scripts = [
    'start',
    'simulate',
    'query',
    'reconcile',
    'replay',
    'redrive',
    'verify',
    'resubmit',
    'settle',
    'console',
    'console:screenshots',
    'fault-proxy',
    'dynamodb-local:fetch',
    'bench',
    'bench:load',
    'bench:tools',
    'bench:cold-start',
    'bench:cli',
    'bench:unsigned-bodies',
    'bench:forwarding',
    'bench:memory',
    'bench:refusals',
    'bench:lists',
    'test:hardening',
  ];

  it('every command npm runs is listed here', async () => {
    const { scripts: all } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
    // The toolchain's own commands (build and prepare build the executable), and bench:smoke
    // (bench --smoke, tested through bench).
    const notOurs = ['test', 'test:infra', 'typecheck', 'lint', 'format', 'synth', 'deploy'];
    notOurs.push('build', 'prepare', 'test:unit');
    const ours = Object.keys(all).filter(
      (name) => ![...notOurs, 'destroy', 'bench:smoke'].includes(name),
    );
    expect(ours.sort()).toEqual([...scripts].sort());
  });

  // Each in a process of its own, as npm runs it: the script's command line from package.json
  // through a shell, with node_modules/.bin first on the PATH (npm's own start-up, the same
  // for every script, is crossed once, by `npm run query`). Several at once: each is mostly
  // waiting on its own start.
  it.concurrent.each(scripts)(
    'npm run %s -- --help ends with the exit codes (then any examples) and does no work',
    async (script) => {
      const started = Date.now();
      const result = await runPackageScript(script, ['--help']);

      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(
        /Exit codes \(the same in every command: docs\/tools\.md\):\n {2}0 {3}.+\n(?: {2}1 {3}.+\n)? {2}2 {3}usage or input error: nothing was done\n {2}3 {3}failed: .+\n(?: {2}130 .+\n)?(?:\nExamples:\n(?: {2}npx callback-receiver .+\n){2,3})?$/,
      );
      // No download, no test run, no server: only the help.
      expect(result.stdout).not.toMatch(/Fetching|Test Files|POST http/);
      expect(Date.now() - started).toBeLessThan(60_000);
    },
    90_000,
  );
});

describe('npm run, as typed', () => {
  it('npm run -s query -- --help prints the help alone: no banner on stdout', async () => {
    const result = await run('query', ['--', '--help'], true);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: /);
    expect(result.stdout).toMatch(/Exit codes \(the same in every command/);
  }, 90_000);
});

/** The npm script `name`'s command line, run as npm runs it (`sh -c`, `.bin` on the PATH). */
async function runPackageScript(name: string, args: readonly string[]) {
  const { scripts: all } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
  const line = `${all[name]} ${args.join(' ')}`;
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      'sh',
      ['-c', line],
      {
        cwd: repoRoot,
        env: cleanEnv({
          PATH: `${join(repoRoot, 'node_modules/.bin')}:${process.env.PATH}`,
          npm_lifecycle_event: name,
        }),
        timeout: 90_000,
      },
      (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}
