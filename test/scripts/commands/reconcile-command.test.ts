import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { engineEndpoint, forEachEngine } from '../../support/engines.js';
import { runCommand } from '../../support/in-process-cli.js';
import {
  csv,
  jsonLines,
  type SeededScenario,
  seedScenario,
  since,
  until,
} from '../operations/reconcile/support/reconcile-scenario.js';

/**
 * `npm run reconcile` as an operator runs it, on both engines, against the table of
 * reconcile.test.ts's scenario: exit codes, the output formats, the terminal's safety, and the
 * reports an operator saves (whatever their name, a byte order mark, a malformed row).
 */

forEachEngine((engine) => {
  let seeded: SeededScenario;
  /** The folder of the reports the tests write, removed after them. */
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reconcile-'));
    seeded = await seedScenario(engine);
  });
  afterAll(async () => {
    await seeded?.table.drop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Saves a report in the tests' folder, as an operator saves one, and returns its path. */
  const reportFile = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
  const commandEnv = () => ({
    AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint(engine),
    TABLE_NAME: seeded.table.tableName,
  });

  // The window's first millisecond holds one transaction, with no conflicts: the two tests of a
  // report that should agree read just it.
  const firstMillisecond = () =>
    seeded.tableAsRead.transactions.filter((t) => t.receivedAt === since);
  const reconcileFirstMillisecond = (path: string, env: Record<string, string>) =>
    runCommand('reconcile', [path, '--since', since, '--until', '2026-03-14T00:00:00.001Z'], env);

  it('runs as npm run reconcile: exit 1 with differences in each format, exit 0 when all agree', async () => {
    const differing = await reportFile(
      'report.csv',
      csv(seeded.report, ['reference', 'amount', 'currency', 'type', 'status']),
    );
    const env = commandEnv();
    const args = ['--since', since, '--until', until];

    const counts = { missing: 2, mismatch: 3, unexpected: 1 };
    const failing = await runCommand('reconcile', [differing, ...args, '--format', 'jsonl'], env);
    expect(failing.code).toBe(1);
    const lines = failing.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ kind: 'summary', ...counts });
    // One document: the same differences as items, the summary beside them.
    const json = await runCommand('reconcile', [differing, ...args, '--format', 'json'], env);
    expect(json.code).toBe(1);
    const document = JSON.parse(json.stdout);
    expect(document.items).toEqual(lines.slice(0, -1));
    expect(document.summary).toMatchObject(counts);

    const tables = await runCommand('reconcile', [differing, ...args], env);
    expect(tables.code).toBe(1);
    expect(tables.stdout).toMatch(/^Missing: in the report, never recorded here/);
    expect(tables.stdout).toMatch(/^\d+\s+rec-\d+\s+0\.5\s+TRY\s+Deposit\s+Confirm$/m);
    expect(tables.stdout).toMatch(
      /^rec-\d+\s+[0-9a-f]{12}\s+open\s+\S+\s+99999\s+TRY\s+Deposit\s+Confirm\s+req-0$/m,
    );
    expect(tables.stdout).toMatch(/\s+amount\s+500\.01\s+500$/m);
    expect(tables.stdout).toContain(
      'missing 2, unexpected 1, mismatch 3, open conflicts 2, settled conflicts 0',
    );

    // The window's first millisecond holds one transaction, with no conflicts: a report of
    // exactly it agrees.
    const edge = firstMillisecond();
    expect(edge).toHaveLength(1);
    const agreeing = await reportFile('agreeing.jsonl', jsonLines(edge));
    const passing = await reconcileFirstMillisecond(agreeing, env);
    expect(passing.stdout).toContain('1 of 1 report rows agree');
    expect(passing.code).toBe(0);
  });

  it('escapes a reference that would drive the terminal, in both formats', async () => {
    // C1 CSI and a right-to-left override pass the reference rules; they must not reach a terminal raw.
    const hostile = 'evil\u009b31m\u202edesrever';
    const path = await reportFile(
      'hostile.csv',
      `reference,amount,currency,type,status\n${hostile},1,TRY,Deposit,Confirm\n`,
    );
    const env = commandEnv();
    const args = [path, '--since', since, '--until', until];

    const tables = await runCommand('reconcile', args, env);
    const json = await runCommand('reconcile', [...args, '--format', 'jsonl'], env);

    for (const output of [tables.stdout, json.stdout]) {
      expect(output).not.toMatch(/[\u009b\u202e]/);
      expect(output).toContain('evil\\u009b31m\\u202edesrever');
    }
    expect(JSON.parse(json.stdout.split('\n')[0] ?? '')).toMatchObject({
      kind: 'missing',
      reference: hostile,
    });
  });

  it('shows the first 20 differences of a kind and counts the rest; --output FILE gets them all', async () => {
    // 45 references never recorded; the first would run as a formula in a spreadsheet.
    const unknown = Array.from({ length: 45 }, (_, i) => (i === 0 ? '=cmd|calc' : `never-${i}`));
    const lines = unknown.map((reference) => `"${reference}",1,TRY,Deposit,Confirm`);
    const path = await reportFile(
      'unknown.csv',
      `reference,amount,currency,type,status\n${lines.join('\n')}\n`,
    );
    const env = commandEnv();
    const args = [path, '--since', since, '--until', until];
    const out = join(dir, 'differences.csv');

    const tables = await runCommand('reconcile', args, env);
    const saved = await runCommand('reconcile', [...args, '--output', out], env);

    expect(tables.code).toBe(1);
    const shown = tables.stdout.split('\n').filter((line) => /^\d+\s+(never-|=cmd)/.test(line));
    expect(shown).toHaveLength(20);
    expect(tables.stdout).toContain('… and 25 more missing');
    expect(tables.stdout).toMatch(
      /^\d+ more differences: use --format json\|jsonl\|csv or --output FILE$/m,
    );
    expect(saved.code).toBe(1);
    expect(saved.stdout).toContain(`all differences written to ${out}`);
    const written = parse(await readFile(out, 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    const missing = written.filter((row) => row.kind === 'missing').map((row) => row.reference);
    expect(missing).toEqual(["'=cmd|calc", ...unknown.slice(1)]);
  });

  it('reads a JSON Lines report that begins with a byte order mark, whatever its name', async () => {
    const path = await reportFile('report.txt', `\uFEFF${jsonLines(firstMillisecond())}`);
    const env = commandEnv();

    const result = await reconcileFirstMillisecond(path, env);

    expect(result.stdout).toContain('1 of 1 report rows agree');
    expect(result.code).toBe(0);
  });

  it('exits 2 from npm run reconcile on a malformed row, naming the line', async () => {
    const path = await reportFile(
      'bad.csv',
      'reference,amount,currency,type,status\nr-1,100,TRY,Deposit,Confirm\nr-2,100,try,Deposit,Confirm\n',
    );
    const result = await runCommand(
      'reconcile',
      [path, '--since', since, '--until', until],
      commandEnv(),
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 3: currency must be three uppercase letters');
  });

  it('exits 2 before reading the table when the report cannot be read, saying why', async () => {
    const missing = join(dir, 'no-such-report.csv');

    const result = await runCommand(
      'reconcile',
      [missing, '--since', since, '--until', until],
      commandEnv(),
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^reconcile: cannot read the report ${missing}: no such file$`, 'm'),
    );
    expect(result.stdout).toBe('');
  });

  it('warns on stderr when nothing was recorded in the window', async () => {
    const path = await reportFile('empty-window.csv', 'reference,amount,currency,type,status\n');

    const result = await runCommand(
      'reconcile',
      [path, '--since', '2020-01-01', '--until', '2020-01-02'],
      commandEnv(),
    );

    expect(result.stderr).toContain(
      "reconcile: warning: nothing was recorded in the window: is it the report's day? (--since, --until)\n",
    );
    expect(result.code).toBe(0);
  });
});
