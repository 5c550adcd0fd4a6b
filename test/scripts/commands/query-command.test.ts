import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../../../lambda/storage/transaction-store.js';
import { createTestTable, engineEndpoint, engines, type TestTable } from '../../support/engines.js';
import { runCommand } from '../../support/in-process-cli.js';
import { storeTransactions, syntheticRecords } from '../../support/stored-transactions.js';

/**
 * `npm run query` as a user runs it, against a table on the first engine (the commands'
 * reading is tested on both engines in time-queries.test.ts).
 */
const engine = engines[0] as (typeof engines)[number];
const end = new Date('2026-11-20T00:00:00.000Z');
const records = syntheticRecords({ count: 60, spanDays: 2, end, seed: 3, usernames: 3 });
const hostile = 'mallory\u009b2J\u202etxt.exe\u2028';
(records[0] as { transaction: { username: string } }).transaction.username = hostile;
// A cell a spreadsheet would run as a formula (OWASP CSV injection).
const formula = '=HYPERLINK("http://evil.example","x")';
(records[1] as { transaction: { username: string } }).transaction.username = formula;
const newestFirst = [...records].sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));

describe('npm run query (list, export, summary)', () => {
  let table: TestTable;
  let env: Record<string, string>;
  /** A command line as typed after `npm run query --` (no argument holds a space). */
  const query = (line: string) => runCommand('query', line.split(' '), env);
  beforeAll(async () => {
    table = await createTestTable(engine);
    env = { AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint(engine), TABLE_NAME: table.tableName };
    await storeTransactions(table.client, table.tableName, records);
  }, 60_000);
  afterAll(() => table?.drop());

  it('export --format csv writes every transaction of the window, newest first, digits exact', async () => {
    const { code, stdout } = await query('export --since 2026-11-18 --format csv');

    expect(code).toBe(0);
    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.reference)).toEqual(
      newestFirst.map((record) => record.transaction.reference),
    );
    const big = records.find(
      (record) => record.transaction.amount.length > 15,
    ) as TransactionRecord;
    expect(rows.find((row) => row.reference === big.transaction.reference)?.amount).toBe(
      big.transaction.amount,
    );
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'reference',
      'receivedAt',
      'id',
      'username',
      'amount',
      'currency',
      'type',
      'status',
    ]);
    // Exact data to a file: the stored username, unescaped.
    expect(rows.find((row) => row.reference === records[0]?.transaction.reference)?.username).toBe(
      hostile,
    );
  });

  it('export --type and --status keep only those transactions, the values in any case', async () => {
    const { code, stdout } = await query(
      'export --since 2026-11-18 --type withdrawal --status REJECT --format jsonl',
    );

    expect(code).toBe(0);
    const expected = newestFirst.filter(
      ({ transaction }) => transaction.type === 'Withdrawal' && transaction.status === 'Reject',
    );
    expect(expected.length).toBeGreaterThan(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).reference)).toEqual(
      expected.map(({ transaction }) => transaction.reference),
    );
  });

  it('export --format jsonl writes one JSON object a line, numbers as stored', async () => {
    const { code, stdout } = await query(
      'export --since 2026-11-19 --until 2026-11-20 --format jsonl',
    );

    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    const expected = newestFirst.filter((record) => record.receivedAt >= '2026-11-19');
    expect(lines).toHaveLength(expected.length);
    const first = expected[0] as TransactionRecord;
    expect(lines[0]).toContain(`"amount":${first.transaction.amount}`);
    expect(JSON.parse(lines[0] as string).reference).toBe(first.transaction.reference);
  });

  it('summary --format json gives one row per currency, type and status, counts adding up', async () => {
    const { code, stdout } = await query('summary --since 2026-11-18 --format json');

    expect(code).toBe(0);
    const { items: rows, summary } = JSON.parse(stdout) as {
      items: Record<string, unknown>[];
      summary: { count: number };
    };
    expect(summary.count).toBe(rows.length);
    expect(rows.reduce((sum, row) => sum + (row.count as number), 0)).toBe(records.length);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['currency', 'type', 'status', 'count', 'amount']);
      expect(row.amount).toMatch(/^\d+(\.\d+)?$/);
    }
  });

  it('summary --by day --format csv adds the day column', async () => {
    const { code, stdout } = await query('summary --since 2026-11-18 --by day --format csv');

    expect(code).toBe(0);
    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    expect(new Set(rows.map((row) => row.day))).toEqual(new Set(['2026-11-18', '2026-11-19']));
  });

  it('list shows a hostile username escaped, never its control or bidi characters', async () => {
    const { code, stdout } = await query('list --since 2026-11-18 --limit 5');

    expect(code).toBe(0);
    expect(stdout).toContain('mallory\\u009b2J\\u202etxt.exe\\u2028');
    expect(stdout).not.toMatch(/[\u009b\u202e\u2028]/u);
    expect(stdout).toMatch(/5 transactions \(the newest 5/);
  });

  it('list --format json prints one document, items newest first and a summary; jsonl a line each', async () => {
    const json = await query('list --since 2026-11-18 --limit 7 --format json');
    const jsonl = await query('list --since 2026-11-18 --limit 7 --format jsonl');

    expect(json.code).toBe(0);
    const document = JSON.parse(json.stdout) as { items: { reference: string }[]; summary: object };
    const newest = newestFirst.slice(0, 7).map(({ transaction }) => transaction.reference);
    expect(document.items.map((item) => item.reference)).toEqual(newest);
    expect(document.summary).toEqual({ count: 7 });
    const lines = jsonl.stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).reference)).toEqual(newest);
  });

  it('list shows the first 50 rows as a table and counts the rest, naming the formats', async () => {
    const { code, stdout } = await query('list --since 2026-11-18 --limit 60');

    expect(code).toBe(0);
    const rows = stdout.split('\n').filter((line) => /^2026-11-1\d/.test(line));
    expect(rows).toHaveLength(50);
    expect(stdout).toContain('60 transactions (the newest 60: raise --limit for more)');
    expect(stdout).toContain('10 more transactions: use --format json|jsonl|csv or --output FILE');
  });

  it('list with no selection lists the newest 50 through the time index, newest first', async () => {
    const { code, stdout, stderr } = await query('list --format json');

    expect(code, stderr).toBe(0);
    const document = JSON.parse(stdout) as { items: { reference: string }[] };
    const newest = newestFirst.slice(0, 50).map(({ transaction }) => transaction.reference);
    expect(document.items.map((item) => item.reference)).toEqual(newest);
  });

  it('list --until alone lists the newest before it', async () => {
    const until = newestFirst[10]?.receivedAt as string;

    const { code, stdout, stderr } = await query(`list --until ${until} --limit 3 --format jsonl`);

    expect(code, stderr).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).reference)).toEqual(
      newestFirst.slice(11, 14).map(({ transaction }) => transaction.reference),
    );
  });

  it('list --output FILE writes every row in the format of its extension, the table on stdout', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'query-out-')), 'all.csv');

    const { code, stdout } = await query(`list --since 2026-11-18 --limit 60 --output ${file}`);

    expect(code).toBe(0);
    const rows = parse(await readFile(file, 'utf8'), { columns: true }) as { reference: string }[];
    expect(rows.map((row) => row.reference)).toEqual(
      newestFirst.map(({ transaction }) => transaction.reference),
    );
    expect(stdout).toContain(`all 60 written to ${file}`);
    expect(stdout).not.toContain('more transactions: use');
  });

  it("export --format csv puts a ' before a cell a spreadsheet would run; --csv-raw keeps it", async () => {
    const reference = records[1]?.transaction.reference;
    const usernameOf = (text: string) =>
      (parse(text, { columns: true }) as Record<string, string>[]).find(
        (row) => row.reference === reference,
      )?.username;

    const safe = await query('export --since 2026-11-18 --format csv');
    const raw = await query('export --since 2026-11-18 --format csv --csv-raw');

    expect(usernameOf(safe.stdout)).toBe(`'${formula}`);
    expect(usernameOf(raw.stdout)).toBe(formula);
  });

  it.each([
    ['list --since 2026-11-18 --output transactions.txt', /--output transactions.txt/],
    ['list --since 2026-11-18 --format xml', /--format/],
    ['summary', /--since/],
    ['export --since 2026-11-18 --scan', /unknown option/],
    ['list --since 2999-01-01', /--since 2999-01-01 is in the future/],
    ['nonsense', /unknown command/],
    ['export', /needs exactly one of --username or --since/],
    ['list --username alice --scan', /needs at most one of --username, --since or --scan/],
  ])('exits 2 with a usage message for %s', async (args, message) => {
    const { code, stderr } = await query(args);

    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
