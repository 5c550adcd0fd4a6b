import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTable, engineEndpoint, engines, type TestTable } from '../../support/engines.js';
import { runCommand } from '../../support/in-process-cli.js';
import { parseExact } from '../../support/local-cli.js';
import { storeTransactions, syntheticRecords } from '../../support/stored-transactions.js';

/**
 * `query search`, as typed: the same search as the console's box (its reading is tested on both
 * engines in test/scripts/table/transaction-search.test.ts), here what the terminal shows.
 */
const engine = engines[0] as (typeof engines)[number];
const records = syntheticRecords({ count: 30, spanDays: 1, end: new Date('2026-11-20'), seed: 5 });
(records[4] as { transaction: { username: string } }).transaction.username = 'Ada.LOVELACE';

describe('query search', () => {
  let table: TestTable;
  let env: Record<string, string>;
  const query = (...args: string[]) => runCommand('query', ['search', ...args], env);
  beforeAll(async () => {
    table = await createTestTable(engine);
    env = { AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint(engine), TABLE_NAME: table.tableName };
    await storeTransactions(table.client, table.tableName, records);
  }, 60_000);
  afterAll(() => table?.drop());

  it('finds a reference by its start and says what it searched, under the table', async () => {
    const { code, stdout } = await query('bench-5-2');

    expect(code).toBe(0);
    // bench-5-2 and bench-5-20 … bench-5-29.
    expect(stdout.split('\n').filter((line) => /^\d{4}-.* bench-5-2\d? /.test(line))).toHaveLength(
      11,
    );
    expect(stdout).toContain('references starting with "bench-5-2": 11 found');
    expect(stdout).toContain('username "bench-5-2" in any letter case: 0 found');
  });

  it('--q finds the gateway id, and JSON carries what each row matched and what was searched', async () => {
    const { code, stdout } = await query('--q', '1000007', '--format', 'json');

    expect(code).toBe(0);
    const { items, summary } = parseExact<{
      items: { reference: string; matched: string[] }[];
      summary: { searched: { kind: string; found: number }[] };
    }>(stdout);
    expect(items.map(({ reference, matched }) => [reference, matched])).toEqual([
      ['bench-5-7', ['id']],
    ]);
    expect(summary.searched.map(({ kind, found }) => [kind, found])).toEqual([
      ['id', '1'],
      ['reference', '0'],
      ['username', '0'],
    ]);
  });

  it('finds a username in another case, as CSV with the matched column', async () => {
    const { stdout } = await query('ada.lovelace', '--format', 'csv');

    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.reference, row.username, row.matched])).toEqual([
      ['bench-5-4', 'Ada.LOVELACE', 'username'],
    ]);
  });

  it('refuses no text, or both an argument and --q, with a usage error', async () => {
    for (const args of [[], ['x', '--q', 'y'], ['  ']]) {
      const { code, stderr } = await query(...args);
      expect(code).toBe(2);
      expect(stderr).toContain('give what to look for');
    }
  });
});
