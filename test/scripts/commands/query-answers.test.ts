import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRefusalStore } from '../../../lambda/refusals/dynamodb-refusal-store.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import {
  createTestRefusalsTable,
  createTestTable,
  engineEndpoint,
  type TestTable,
  testCredentials,
  testRegion,
} from '../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';
import { receiverWith } from '../../support/receiver.js';

/**
 * What each `npm run query` subcommand says when it finds nothing, one, or several: the footers
 * and exit codes a user reads, and the refusals of a bad selection. Against dynalite: a table
 * holding two transactions, two open conflicts on one of them and a kept refusal, and an empty one.
 */
const endpoint = engineEndpoint('dynalite');
let table: TestTable;
let refusals: TestTable;
let empty: TestTable;
let emptyRefusals: TestTable;
const conflicted = transaction({ username: 'answers.conflicted' });
const plain = transaction({ username: 'answers.plain' });

/** `npm run query -- <args>` against `on` (the filled table unless given). */
const query = (args: readonly string[], on?: TestTable) =>
  runCommand('query', [...args, '--endpoint', endpoint], {
    TABLE_NAME: (on ?? table).tableName,
  });

beforeAll(async () => {
  [table, refusals, empty, emptyRefusals] = await Promise.all([
    createTestTable('dynalite'),
    createTestRefusalsTable('dynalite'),
    createTestTable('dynalite'),
    createTestRefusalsTable('dynalite'),
  ]);
  const receive = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), {
    refusals: new DynamoDbRefusalStore(refusals.client, refusals.tableName),
  });
  for (const fields of [conflicted, plain]) {
    expect((await receive(callbackEvent(signed(fields)))).statusCode).toBe(204);
  }
  for (const amount of [1, 2]) {
    const differing = signed({ ...conflicted, amount });
    expect((await receive(callbackEvent(differing))).statusCode).toBe(409);
  }
  // Signed with another key: refused for its content and kept.
  expect((await receive(callbackEvent(signed(transaction(), 'another-key')))).statusCode).toBe(403);
});
afterAll(async () => {
  await Promise.all([table, refusals, empty, emptyRefusals].map((t) => t?.drop()));
});

describe('query get', () => {
  it('says no transaction has the reference, exit 1', async () => {
    const result = await query(['get', 'no-such-ref']);

    expect(result.stdout).toBe('No transaction with reference "no-such-ref".\n');
    expect(result.code).toBe(1);
  });

  it('--format json gives a null transaction, no history or conflicts, exit 1', async () => {
    const result = await query(['get', 'no-such-ref', '--format', 'json']);

    expect(JSON.parse(result.stdout)).toEqual({ transaction: null, history: [], conflicts: [] });
    expect(result.code).toBe(1);
  });

  it('shows a transaction never settled with its fields, exit 0', async () => {
    const result = await query(['get', String(plain.reference)]);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^reference\\s+${plain.reference}$`, 'm'));
    expect(result.stdout).toMatch(/^username\s+answers\.plain$/m);
  });
});

describe('query conflicts', () => {
  it('counts the open ones, and with --all says "conflicts" alone', async () => {
    const open = await query(['conflicts']);
    const all = await query(['conflicts', '--all']);

    expect(open.stdout).toMatch(/\n2 open conflicts\n$/);
    expect(all.stdout).toMatch(/\n2 conflicts\n$/);
    expect([open.code, all.code]).toEqual([0, 0]);
  });

  it('says there are none, open or at all', async () => {
    const open = await query(['conflicts'], empty);
    const all = await query(['conflicts', '--all'], empty);

    expect(open.stdout).toContain('(no open conflicts)\n');
    expect(all.stdout).toContain('(no conflicts)\n');
  });
});

describe('query list and export', () => {
  it('list by user counts one transaction, without the --limit hint', async () => {
    const result = await query(['list', '--username', 'answers.plain']);

    expect(result.stdout).toMatch(/\n1 transaction\n$/);
    expect(result.stdout).toContain(String(plain.reference));
    expect(result.code).toBe(0);
  });

  it('list --scan reads the whole table when asked', async () => {
    const result = await query(['list', '--scan', '--format', 'jsonl']);

    const references = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).reference)
      .sort();
    expect(references).toEqual([String(conflicted.reference), String(plain.reference)].sort());
  });

  it('list on an empty table says there are no transactions', async () => {
    const result = await query(['list'], empty);

    expect(result.stdout).toContain('(no transactions)\n');
    expect(result.code).toBe(0);
  });

  it('export --limit stops there, the table format counting what it wrote', async () => {
    const result = await query([
      'export',
      '--since',
      '2020-01-01',
      '--limit',
      '1',
      '--format',
      'table',
    ]);

    expect(result.stdout).toMatch(/\n1 transaction\n$/);
    expect(result.code).toBe(0);
  });

  it.each([
    [['list', '--username', ''], /^query: --username must not be empty$/m],
    [['export'], /^query: needs exactly one of --username or --since$/m],
    [
      ['list', '--scan', '--username', 'x'],
      /^query: needs at most one of --username, --since or --scan$/m,
    ],
    [
      ['list', '--scan', '--type', 'refund'],
      /argument 'refund' is invalid\. must be Deposit or Withdrawal\./,
    ],
  ])('%j refuses with exit 2 and says why', async (args, line) => {
    const result = await query(args);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(line);
    expect(result.stdout).toBe('');
  });
});

describe('query summary and search', () => {
  it('summary says the window holds no transactions', async () => {
    const result = await query(['summary', '--since', '2020-01-01', '--until', '2020-01-02']);

    expect(result.stdout).toContain('(no transactions in the window)\n');
    expect(result.code).toBe(0);
  });

  it('search says when the text can be none of a reference, gateway id or username', async () => {
    // Longer than a reference may be, and than an index key holds.
    const text = 'x'.repeat(2049);

    const result = await query(['search', text]);

    expect(result.stderr).toBe(
      `query: "${text}" cannot be a reference, a gateway id or a username\n`,
    );
    expect(result.stdout).toBe('Searched:\n');
    expect(result.code).toBe(0);
  });
});

describe('query refused', () => {
  const refused = (args: readonly string[], on: TestTable) =>
    runCommand('query', ['refused', '--table', on.tableName, ...args, '--endpoint', endpoint], {
      AWS_REGION: testRegion,
      AWS_ACCESS_KEY_ID: testCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: testCredentials.secretAccessKey,
    });

  it('counts the kept refusals since a date', async () => {
    const result = await refused(['--since', '2020-01-01', '--format', 'table'], refusals);

    expect(result.stdout).toMatch(/\n1 kept refusal\n$/);
    expect(result.code).toBe(0);
  });

  it('says none are kept when the table holds none', async () => {
    const result = await refused([], emptyRefusals);

    expect(result.stdout).toContain('(no kept refusals)\n');
    expect(result.code).toBe(0);
  });
});
