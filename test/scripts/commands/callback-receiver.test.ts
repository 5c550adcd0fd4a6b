import { execFile } from 'node:child_process';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTable, engineEndpoint, engines, type TestTable } from '../../support/engines.js';
import { type CliResult, cleanEnv, repoRoot } from '../../support/local-cli.js';
import { storeTransactions, syntheticRecords } from '../../support/stored-transactions.js';
import {
  binCommands,
  binPath,
  checkBinArguments,
  helpIndex,
  helpText,
  simpleCommands,
} from '../cli/command-lines.js';

/**
 * The `callback-receiver` executable as built into dist/ (the test run's global setup builds
 * it): one program for every operator command, each `--help` ending with examples that parse.
 */

function bin(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      join(repoRoot, 'node_modules/.bin/node'),
      [binPath, ...args],
      { cwd: repoRoot, env: cleanEnv(env), timeout: 60_000 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('callback-receiver', () => {
  it('is a node script npm can link: a shebang and the executable bit', async () => {
    const { bin: declared } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));
    const text = await readFile(binPath, 'utf8');

    expect(join(repoRoot, declared['callback-receiver'])).toBe(binPath);
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect((await stat(binPath)).mode & 0o111).not.toBe(0);
  });

  it('--help lists every command on stdout and exits 0', async () => {
    const result = await bin(['--help']);

    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    for (const command of binCommands)
      expect(result.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
  });

  it('an unknown command exits 2 with the list on stderr and nothing on stdout', async () => {
    const result = await bin(['qeury', 'list']);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^callback-receiver: unknown command "qeury"\n/);
  });

  it("a command's usage error names the executable, as it was typed", async () => {
    const result = await bin(['query', 'list', '--sinse', '2026-11-27']);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("query: unknown option '--sinse'");
    expect(result.stderr).toContain('Try: callback-receiver query --help');
  });

  it('the npm scripts of the commands run it', async () => {
    const { scripts } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8'));

    for (const command of binCommands) {
      expect(scripts[command]).toMatch(
        new RegExp(`^(exec )?node dist/cli/callback-receiver\\.js ${command}$`),
      );
    }
  });
});

describe('every --help ends with examples that parse', () => {
  // query's subcommands as its --help lists them: a new one without examples fails here.
  const querySubcommands = [
    'get',
    'search',
    'conflicts',
    'list',
    'export',
    'summary',
    'refused',
    'tail',
  ];
  const helpPaths = [
    ...binCommands.map((command) => [command]),
    ...querySubcommands.map((sub) => ['query', sub]),
  ];

  it('covers every subcommand query --help lists', async () => {
    const listed = [...(await helpIndex(['query'])).subcommands];

    expect(listed.sort()).toEqual([...querySubcommands].sort());
  });

  it.each(helpPaths.map((path) => [path.join(' '), path]))('%s --help', async (_name, path) => {
    const help = await helpText(path);

    const examples = /\nExamples:\n((?: {2}.+\n)+)$/.exec(help)?.[1]?.trimEnd().split('\n');
    expect(examples?.length).toBeGreaterThanOrEqual(2);
    expect(examples?.length).toBeLessThanOrEqual(3);
    for (const example of examples ?? []) {
      const [command, ...others] = simpleCommands(example.trim());
      expect(others).toEqual([]);
      expect(command?.words.slice(0, 2)).toEqual(['npx', 'callback-receiver']);
      expect(command?.words[2]).toBe(path[0]);
      expect(await checkBinArguments(command?.words.slice(2) ?? [])).toEqual([]);
    }
  });
});

describe('reconcile tells which window it read', () => {
  const engine = engines[0] as (typeof engines)[number];
  let table: TestTable;
  let env: Record<string, string>;
  let report: string;
  beforeAll(async () => {
    table = await createTestTable(engine);
    env = { AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint(engine), TABLE_NAME: table.tableName };
    const end = new Date('2026-03-15T00:00:00.000Z');
    const records = syntheticRecords({ count: 3, spanDays: 1, end, seed: 5, usernames: 2 });
    await storeTransactions(table.client, table.tableName, records);
    report = join(await mkdtemp(join(tmpdir(), 'reconcile-window-')), 'report.csv');
    const rows = records.map(({ transaction: t }) =>
      [t.reference, t.amount, t.currency, t.type, t.status].join(','),
    );
    await writeFile(report, `reference,amount,currency,type,status\n${rows.join('\n')}\n`);
  }, 60_000);
  afterAll(() => table?.drop());

  it('on stderr, stdout left to the data, and no warning when the window holds the report', async () => {
    const result = await bin(
      ['reconcile', report, '--since', '2026-03-14', '--until', '2026-03-15', '--format', 'json'],
      env,
    );

    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('summary');
    expect(result.stderr).toContain(
      'reconcile: window 2026-03-14T00:00:00.000Z to 2026-03-14T23:59:59.999Z\n',
    );
    expect(result.stderr).not.toContain('warning');
  });

  it('names the default window and warns when nothing was recorded in it', async () => {
    const result = await bin(['reconcile', report, '--format', 'jsonl'], env);

    // The report's references are found outside the window: how that is judged is reconcile's.
    expect(result.code).toBeLessThan(2);
    expect(result.stderr).toMatch(/reconcile: window \S+ to \S+ \(the default: yesterday, UTC\)\n/);
    expect(result.stderr).toContain(
      'reconcile: warning: nothing was recorded in the window: is it the report',
    );
    for (const line of result.stdout.trimEnd().split('\n'))
      expect(() => JSON.parse(line)).not.toThrow();
  });
});
