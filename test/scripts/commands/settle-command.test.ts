import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SerializableValue } from '../../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engineEndpoint, engines, type TestTable } from '../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';
import { receiverWith } from '../../support/receiver.js';

/**
 * `npm run settle` and `npm run query -- conflicts | get` as an operator types them, against a
 * table on each engine (a local engine's endpoint: the operator is the OS user).
 */
describe.each(engines)('npm run settle on %s', (engine) => {
  let table: TestTable;
  let env: Record<string, string>;
  let invoke: ReturnType<typeof receiverWith>;
  const settle = (...args: string[]) => runCommand('settle', args, env);
  const query = (...args: string[]) => runCommand('query', args, env);
  const deliver = async (fields: Record<string, SerializableValue>) =>
    (await invoke(callbackEvent(signed(fields)))).statusCode;

  beforeAll(async () => {
    table = await createTestTable(engine);
    env = { AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint(engine), TABLE_NAME: table.tableName };
    invoke = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName));
  }, 60_000);
  afterAll(() => table?.drop());

  it('lists an open conflict with its difference, corrects it, then shows the history', async () => {
    const stored = transaction({ amount: 1000, status: 'Reject' });
    const reference = stored.reference as string;
    await deliver(stored);
    await deliver({ ...stored, status: 'Confirm', note: 'chargeback reversed' });
    await deliver({ ...stored, status: 'Confirm', note: 'chargeback reversed' });

    const listed = await query('conflicts', '--format', 'json');
    expect(listed.code).toBe(0);
    const document = JSON.parse(listed.stdout) as {
      items: Record<string, unknown>[];
      summary: { count: number };
    };
    expect(document.summary.count).toBe(document.items.length);
    const conflict = document.items.find((entry) => entry.reference === reference);
    expect(conflict).toMatchObject({
      status: 'open',
      deliveries: 2,
      transactionVersion: 1,
      differences: [
        { field: 'status', stored: 'Reject', received: 'Confirm' },
        { field: 'extra.note', stored: null, received: '"chargeback reversed"' },
      ],
    });
    const table = await query('conflicts');
    expect(table.stdout).toContain('extra.note');
    expect(table.stdout).toMatch(/status\s+Reject\s+Confirm/);

    const settled = await settle(
      reference,
      '--accept',
      'received',
      '--reason',
      'OPS-42 gateway fixed status',
      '--expect-version',
      '1',
    );
    expect(settled.stderr).toBe('');
    expect([settled.code, settled.stdout]).toEqual([
      0,
      expect.stringMatching(/corrected: .*version 2/),
    ]);

    const got = await query('get', reference, '--format', 'json');
    const history = JSON.parse(got.stdout).history as Record<string, unknown>[];
    expect(history).toMatchObject([
      {
        version: 1,
        current: false,
        by: 'gateway',
        superseded: { by: `local:${userInfo().username}`, reason: 'OPS-42 gateway fixed status' },
      },
      {
        version: 2,
        current: true,
        by: `local:${userInfo().username}`,
        transaction: { status: 'Confirm' },
      },
    ]);
    const shown = await query('get', reference);
    expect(shown.stdout).toMatch(/History \(2 versions/);
    expect(shown.stdout).toContain('status: Reject → Confirm');
    expect(shown.stdout).toMatch(/req-\d+\s+received\n/);
    expect((await query('conflicts')).stdout).not.toContain(reference);
    expect((await query('conflicts', '--all', '--format', 'jsonl')).stdout).toContain(
      '"resolution":"received"',
    );
    // The table says who decided, when and why; the transaction is now what was received.
    const all = (await query('conflicts', '--all')).stdout;
    expect(all).toMatch(
      new RegExp(
        `settled received by local:${userInfo().username} at \\S+: OPS-42 gateway fixed status`,
      ),
    );
    expect(all).toContain('(no difference)');
  });

  it('lists conflicts as CSV, a row per differing field, and into an --output file', async () => {
    const stored = transaction({ amount: 40, status: 'Reject' });
    const reference = stored.reference as string;
    await deliver(stored);
    await deliver({ ...stored, status: 'Confirm', note: 'chargeback reversed' });

    const csv = (await query('conflicts', '--format', 'csv')).stdout.split('\n');
    const file = join(await mkdtemp(join(tmpdir(), 'conflicts-')), 'open.jsonl');
    const saved = await query('conflicts', '--output', file);

    expect(csv[0]).toBe(
      'reference,conflict,version,firstReceivedAt,lastReceivedAt,deliveries,status,field,stored,received',
    );
    expect(csv.filter((line) => line.startsWith(`${reference},`))).toEqual([
      expect.stringMatching(/,1,.*,1,open,status,Reject,Confirm$/),
      expect.stringMatching(/,1,open,extra\.note,\(absent\),"""chargeback reversed"""$/),
    ]);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    const written = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(saved.stdout).toContain(`all ${written.length} written to ${file}`);
    expect(saved.stdout).toMatch(/status\s+Reject\s+Confirm/);
    expect(written.find((conflict) => conflict.reference === reference)).toMatchObject({
      status: 'open',
      deliveries: 1,
    });
  });

  it('refuses with one line and exit 2: no reason, unknown reference, no open conflict, stale version', async () => {
    const stored = transaction({ amount: 5 });
    const reference = stored.reference as string;
    await deliver(stored);
    await deliver({ ...stored, amount: 6 });

    const outcomes = await Promise.all([
      settle(reference, '--accept', 'stored'),
      settle('no-such-reference', '--accept', 'stored', '--reason', 'x'),
      settle(reference, '--accept', 'stored', '--reason', 'x', '--expect-version', '3'),
    ]);
    for (const outcome of outcomes) {
      expect(outcome.code).toBe(2);
      expect(outcome.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(outcomes.map((outcome) => outcome.stderr)).toEqual([
      expect.stringMatching(/^settle refused: a reason is required/),
      expect.stringMatching(/^settle refused: unknown reference "no-such-reference"/),
      expect.stringMatching(
        /^settle refused: the transaction changed since: it is at version 1, not 3/,
      ),
    ]);

    expect(
      (await settle(reference, '--accept', 'stored', '--reason', 'reused by mistake')).code,
    ).toBe(0);
    const again = await settle(reference, '--accept', 'received', '--reason', 'second thoughts');
    expect([again.code, again.stderr]).toEqual([
      2,
      expect.stringMatching(/^settle refused: no open conflict .*1 settled/),
    ]);
  });
});
