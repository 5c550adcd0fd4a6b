import { paginateScan } from '@aws-sdk/client-dynamodb';
import { JsonNumber } from '../../../../../lambda/json/json-number.js';
import type { SerializableValue } from '../../../../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, type Engine, type TestTable } from '../../../../support/engines.js';
import { recordOf } from '../../../../support/stream-records.js';

/**
 * One table and one gateway report holding every case reconcile tells apart, shared by the test
 * of reconcile itself (against an oracle) and the test of `npm run reconcile`: the window they
 * reconcile, the rows of the report, and the table as a whole scan reads it.
 */

export const since = '2026-03-14T00:00:00.000Z';
export const until = '2026-03-15T00:00:00.000Z';

/** The columns a report row holds and reconcile compares (beside the reference). */
export interface Fields {
  reference: string;
  amount: string;
  currency: string;
  type: string;
  status: string;
}

/** The table read whole, not through the indexes reconcile uses. */
export interface TableAsRead {
  transactions: (Fields & { receivedAt: string })[];
  conflicts: (Fields & { requestId: string })[];
}

export interface SeededScenario {
  readonly table: TestTable;
  readonly report: Fields[];
  readonly tableAsRead: TableAsRead;
}

let counter = 0;
function fields(overrides: Partial<Fields> = {}): Fields {
  counter += 1;
  return {
    reference: `rec-${counter}`,
    amount: String(1000 + counter),
    currency: 'TRY',
    type: 'Deposit',
    status: 'Confirm',
    ...overrides,
  };
}

/** The scenario: every category, amounts equal as decimals, both window edges. */
function scenario() {
  const recorded: { fields: Fields; receivedAt: string }[] = [];
  const report: Fields[] = [];
  const conflicts: Fields[] = [];
  const both = (
    f: Fields,
    receivedAt = '2026-03-14T10:00:00.000Z',
    reported: Partial<Fields> = {},
  ) => {
    recorded.push({ fields: f, receivedAt });
    report.push({ ...f, ...reported });
  };
  // Agreeing, one amount written with a trailing zero by the gateway.
  both(fields());
  both(fields({ amount: '1050.7' }), undefined, { amount: '1050.70' });
  both(fields({ reference: 'quoted, "ref"; with comma', currency: 'EUR' }));
  // The window's first instant belongs to it; a row received exactly at `until` does not,
  // but is found by reference and agrees.
  both(fields(), since);
  both(fields(), until);
  // Mismatches: amount, status, two fields at once.
  both(fields({ amount: '500' }), undefined, { amount: '500.01' });
  both(fields({ status: 'Reject' }), undefined, { status: 'Confirm' });
  both(fields({ type: 'Withdrawal' }), '2026-03-14T23:59:59.999Z', {
    type: 'Deposit',
    currency: 'USD',
  });
  // Missing: reported, never recorded.
  report.push(fields(), fields({ amount: '0.5' }));
  // Unexpected: recorded in the window, not reported; one just before the window is not.
  recorded.push({ fields: fields(), receivedAt: '2026-03-14T12:00:00.000Z' });
  recorded.push({ fields: fields(), receivedAt: '2026-03-13T23:59:59.999Z' });
  // Conflicts kept for an agreeing reference and for an unexpected one.
  const first = recorded[0]?.fields as Fields;
  conflicts.push({ ...first, amount: '99999' });
  conflicts.push({ ...(recorded.at(-2)?.fields as Fields), status: 'Reject' });
  return { recorded, report, conflicts };
}

function transactionBody(f: Fields): Record<string, SerializableValue> {
  return {
    id: 7,
    username: 'ann, "the" user',
    firstName: 'Ann',
    lastName: 'Lee',
    amount: new JsonNumber(f.amount),
    currency: f.currency,
    type: f.type,
    status: f.status,
    message: '',
    reference: f.reference,
  };
}

/** A fresh table on `engine` holding the scenario, the scenario's report, and the table scanned. */
export async function seedScenario(engine: Engine): Promise<SeededScenario> {
  const table = await createTestTable(engine);
  const store = new DynamoDbTransactionStore(table.client, table.tableName);
  const built = scenario();
  for (const { fields: f, receivedAt } of built.recorded) {
    await store.putIfAbsent(recordOf(transactionBody(f), { receivedAt }));
  }
  for (const [index, f] of built.conflicts.entries()) {
    await store.keepConflict(
      recordOf(transactionBody(f), {
        receivedAt: '2026-03-14T15:00:00.000Z',
        requestId: `req-${index}`,
      }),
    );
  }
  return { table, report: built.report, tableAsRead: await scanWhole(table) };
}

async function scanWhole(table: TestTable): Promise<TableAsRead> {
  const tableAsRead: TableAsRead = { transactions: [], conflicts: [] };
  for await (const page of paginateScan({ client: table.client }, { TableName: table.tableName })) {
    for (const item of page.Items ?? []) {
      const source = item.record?.S === 'conflict' ? (item.transaction?.M ?? {}) : item;
      const values = {
        reference: source.reference?.S ?? '',
        amount: source.amount?.N ?? '',
        currency: source.currency?.S ?? '',
        type: source.type?.S ?? '',
        status: source.status?.S ?? '',
      };
      if (item.record?.S === 'conflict') {
        tableAsRead.conflicts.push({ ...values, requestId: item.requestId?.S ?? '' });
      } else tableAsRead.transactions.push({ ...values, receivedAt: item.receivedAt?.S ?? '' });
    }
  }
  return tableAsRead;
}

/** The report as CSV, its columns in `header`'s order, cells quoted where they must be. */
export function csv(rows: readonly Fields[], header: readonly string[]): string {
  const cell = (value: string) =>
    /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  const lines = rows.map((row) =>
    header
      .map((name) =>
        cell(
          name === 'id'
            ? '7'
            : name === 'username'
              ? 'ann, "the" user'
              : String(row[name as keyof Fields]),
        ),
      )
      .join(','),
  );
  return [header.join(','), ...lines].join('\r\n');
}

export function jsonLines(rows: readonly Fields[]): string {
  // Amounts as JSON numbers with the gateway's digits, as a transaction object carries them.
  return rows
    .map((row) =>
      JSON.stringify({ id: 7, ...row, amount: '__AMOUNT__' }).replace('"__AMOUNT__"', row.amount),
    )
    .join('\n');
}
