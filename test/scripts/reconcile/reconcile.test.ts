import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { paginateScan } from '@aws-sdk/client-dynamodb';
import Big from 'big.js';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import type { SerializableValue } from '../../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import {
  type ReportFormat,
  ReportInputError,
  type ReportRow,
  readReport,
} from '../../../scripts/reconcile/gateway-report.js';
import {
  type Finding,
  type ReconcileSummary,
  reconcile,
  tableSources,
} from '../../../scripts/reconcile/reconcile.js';
import { timeWindow } from '../../../scripts/table/time-window.js';
import {
  createTestTable,
  engineEndpoint,
  forEachEngine,
  type TestTable,
} from '../../support/engines.js';
import { runScript } from '../../support/local-cli.js';
import { recordOf } from '../../support/stream-records.js';

/**
 * reconcile against a brute-force oracle, on both engines: the table is read whole (a scan),
 * the report held whole, and every reference compared by linear search. The command must find
 * exactly what the oracle finds, for CSV in any column order and quoting, and for JSON Lines.
 */

const since = '2026-03-14T00:00:00.000Z';
const until = '2026-03-15T00:00:00.000Z';
const window = timeWindow(since, until);

interface Fields {
  reference: string;
  amount: string;
  currency: string;
  type: string;
  status: string;
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

function csv(rows: readonly Fields[], header: readonly string[]): string {
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

function jsonLines(rows: readonly Fields[]): string {
  // Amounts as JSON numbers with the gateway's digits, as a transaction object carries them.
  return rows
    .map((row) =>
      JSON.stringify({ id: 7, ...row, amount: '__AMOUNT__' }).replace('"__AMOUNT__"', row.amount),
    )
    .join('\n');
}

/** The oracle: everything in memory, compared by linear search. */
function oracle(
  report: readonly Fields[],
  table: {
    transactions: (Fields & { receivedAt: string })[];
    conflicts: (Fields & { requestId: string })[];
  },
) {
  const found: string[] = [];
  const conflictReferences = new Set<string>();
  const noteConflicts = (reference: string) => {
    if (table.conflicts.some((conflict) => conflict.reference === reference)) {
      conflictReferences.add(reference);
    }
  };
  report.forEach((row, index) => {
    const line = index + 2;
    const recorded = table.transactions.find((item) => item.reference === row.reference);
    if (recorded === undefined) found.push(`missing ${line} ${row.reference}`);
    else {
      const differing = (['amount', 'currency', 'type', 'status'] as const).filter((name) =>
        name === 'amount' ? !new Big(row.amount).eq(recorded.amount) : row[name] !== recorded[name],
      );
      if (differing.length > 0)
        found.push(`mismatch ${line} ${row.reference} ${differing.join(',')}`);
    }
    noteConflicts(row.reference);
  });
  for (const item of table.transactions) {
    const inWindow = item.receivedAt >= since && item.receivedAt < until;
    if (inWindow && !report.some((row) => row.reference === item.reference)) {
      found.push(`unexpected ${item.reference}`);
      noteConflicts(item.reference);
    }
  }
  for (const reference of conflictReferences) found.push(`conflicts ${reference}`);
  return found.sort();
}

function describeFinding(finding: Finding, lineOffset = 0): string {
  switch (finding.kind) {
    case 'missing':
      return `missing ${finding.line + lineOffset} ${finding.reference}`;
    case 'mismatch':
      return `mismatch ${finding.line + lineOffset} ${finding.reference} ${finding.differences.map((d) => d.field).join(',')}`;
    case 'unexpected':
      return `unexpected ${finding.reference}`;
    case 'conflicts':
      return `conflicts ${finding.reference}`;
  }
}

async function run(
  table: TestTable,
  report: AsyncIterable<ReportRow>,
): Promise<{ findings: Finding[]; summary: ReconcileSummary }> {
  const findings: Finding[] = [];
  const sources = { report, ...tableSources(table, window) };
  const summary = await reconcile(sources, (finding) => {
    findings.push(finding);
  });
  return { findings, summary };
}

const rows = (text: string, format: ReportFormat) => readReport(Readable.from([text]), format);

forEachEngine((engine) => {
  let table: TestTable;
  let expected: string[];
  let report: Fields[];
  let tableAsRead: Parameters<typeof oracle>[1];
  /** The folder of the reports the command-line tests write, removed after them. */
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'reconcile-'));
    table = await createTestTable(engine);
    const store = new DynamoDbTransactionStore(table.client, table.tableName);
    const built = scenario();
    report = built.report;
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
    // The oracle reads the whole table, not the indexes reconcile uses.
    tableAsRead = { transactions: [], conflicts: [] };
    for await (const page of paginateScan(
      { client: table.client },
      { TableName: table.tableName },
    )) {
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
    expected = oracle(report, tableAsRead);
  });
  afterAll(async () => {
    await table.drop();
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
    TABLE_NAME: table.tableName,
  });

  // The window's first millisecond holds one transaction, with no conflicts: the two tests of a
  // report that should agree read just it.
  const firstMillisecond = () => tableAsRead.transactions.filter((t) => t.receivedAt === since);
  const reconcileFirstMillisecond = (path: string, env: Record<string, string>) =>
    runScript('reconcile', [path, '--since', since, '--until', '2026-03-14T00:00:00.001Z'], env);

  it('finds every category the oracle finds, from a CSV report with quoted cells', async () => {
    const header = ['reference', 'amount', 'currency', 'type', 'status'];
    const { findings, summary } = await run(table, rows(csv(report, header), 'csv'));

    expect(findings.map((finding) => describeFinding(finding)).sort()).toEqual(expected);
    expect(expected.filter((line) => line.startsWith('missing'))).toHaveLength(2);
    expect(expected.filter((line) => line.startsWith('mismatch'))).toHaveLength(3);
    expect(expected.filter((line) => line.startsWith('unexpected'))).toHaveLength(1);
    expect(expected.filter((line) => line.startsWith('conflicts'))).toHaveLength(2);
    expect(summary).toMatchObject({
      reportRows: report.length,
      agreeing: 5,
      recordedOutsideWindow: 1,
    });
  });

  it('shows both values of a mismatch, and treats 1050.70 and 1050.7 as the same amount', async () => {
    const header = ['reference', 'amount', 'currency', 'type', 'status'];
    const { findings } = await run(table, rows(csv(report, header), 'csv'));
    const mismatches = findings.filter((finding) => finding.kind === 'mismatch');

    expect(mismatches.flatMap((finding) => finding.differences)).toEqual(
      expect.arrayContaining([
        { field: 'amount', report: '500.01', recorded: '500' },
        { field: 'status', report: 'Confirm', recorded: 'Reject' },
        { field: 'type', report: 'Deposit', recorded: 'Withdrawal' },
        { field: 'currency', report: 'USD', recorded: 'TRY' },
      ]),
    );
    expect(JSON.stringify(findings)).not.toContain('1050.70');
  });

  it('reads the columns by their header names, in any order, ignoring extra ones', async () => {
    const header = ['status', 'username', 'type', 'reference', 'id', 'currency', 'amount'];
    const { findings } = await run(table, rows(csv(report, header), 'csv'));

    expect(findings.map((finding) => describeFinding(finding)).sort()).toEqual(expected);
  });

  it('reads a JSON Lines report with numbers as written', async () => {
    const { findings } = await run(table, rows(jsonLines(report), 'jsonl'));

    // JSON Lines has no header line: row n is line n.
    expect(findings.map((finding) => describeFinding(finding, 1)).sort()).toEqual(expected);
  });

  it('lists everything recorded in the window as unexpected when the report is empty', async () => {
    const { findings, summary } = await run(
      table,
      rows('reference,amount,currency,type,status\r\n', 'csv'),
    );

    const inWindow = tableAsRead.transactions.filter(
      (t) => t.receivedAt >= since && t.receivedAt < until,
    );
    expect(
      findings
        .filter((finding) => finding.kind === 'unexpected')
        .map((f) => f.reference)
        .sort(),
    ).toEqual(inWindow.map((t) => t.reference).sort());
    expect(summary.reportRows).toBe(0);
  });

  it('runs as npm run reconcile: exit 1 with differences in each format, exit 0 when all agree', async () => {
    const differing = await reportFile(
      'report.csv',
      csv(report, ['reference', 'amount', 'currency', 'type', 'status']),
    );
    const env = commandEnv();
    const args = ['--since', since, '--until', until];

    const counts = { missing: 2, mismatch: 3, unexpected: 1 };
    const failing = await runScript('reconcile', [differing, ...args, '--format', 'jsonl'], env);
    expect(failing.code).toBe(1);
    const lines = failing.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ kind: 'summary', ...counts });
    // One document: the same differences as items, the summary beside them.
    const json = await runScript('reconcile', [differing, ...args, '--format', 'json'], env);
    expect(json.code).toBe(1);
    const document = JSON.parse(json.stdout);
    expect(document.items).toEqual(lines.slice(0, -1));
    expect(document.summary).toMatchObject(counts);

    const tables = await runScript('reconcile', [differing, ...args], env);
    expect(tables.code).toBe(1);
    expect(tables.stdout).toMatch(/^Missing: in the report, never recorded here/);
    expect(tables.stdout).toMatch(/^\d+\s+rec-\d+\s+0\.5\s+TRY\s+Deposit\s+Confirm$/m);
    expect(tables.stdout).toMatch(/^rec-\d+\s+\S+\s+99999\s+TRY\s+Deposit\s+Confirm\s+req-0$/m);
    expect(tables.stdout).toMatch(/\s+amount\s+500\.01\s+500$/m);
    expect(tables.stdout).toContain(
      'missing 2, unexpected 1, mismatch 3, references with conflicts 2',
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

    const tables = await runScript('reconcile', args, env);
    const json = await runScript('reconcile', [...args, '--format', 'jsonl'], env);

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

    const tables = await runScript('reconcile', args, env);
    const saved = await runScript('reconcile', [...args, '--output', out], env);

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
    const result = await runScript(
      'reconcile',
      [path, '--since', since, '--until', until],
      commandEnv(),
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 3: currency must be three uppercase letters');
  });
});

describe('a report that begins with a byte order mark', () => {
  it.each([
    ['csv', 'reference,amount,currency,type,status\nr-1,1.50,TRY,Deposit,Confirm\n'],
    [
      'jsonl',
      '{"reference":"r-1","amount":1.50,"currency":"TRY","type":"Deposit","status":"Confirm"}\n',
    ],
  ] as const)('reads %s as if the mark were not there', async (format, text) => {
    const read: ReportRow[] = [];
    for await (const row of rows(`\uFEFF${text}`, format)) read.push(row);

    expect(read.map((row) => [row.line, row.reference, row.amount])).toEqual([
      [format === 'csv' ? 2 : 1, 'r-1', '1.5'],
    ]);
  });
});

describe('a malformed report', () => {
  it('stops at the bad row, naming its line and the field', async () => {
    const text =
      'reference,amount,currency,type,status\nok-1,100,TRY,Deposit,Confirm\nbad-1,-5,TRY,Deposit,Confirm\n';
    const read = async () => {
      for await (const _row of rows(text, 'csv'));
    };
    await expect(read()).rejects.toThrow(ReportInputError);
    await expect(read()).rejects.toThrow(/^line 3: amount must be a non-negative decimal/);
  });

  it('names a CSV row with the wrong number of cells, and a JSON line that is not JSON', async () => {
    const short = 'reference,amount,currency,type,status\nok-1,100,TRY,Deposit\n';
    const drain = async (iterable: AsyncIterable<ReportRow>) => {
      for await (const _row of iterable);
    };
    await expect(drain(rows(short, 'csv'))).rejects.toThrow(/^line 2: /);
    await expect(drain(rows('{"reference":"a"}\n{oops\n', 'jsonl'))).rejects.toThrow(
      /^line 1: amount is required/,
    );
    await expect(
      drain(
        rows(
          '{"reference":"a","amount":1,"currency":"TRY","type":"Deposit","status":"Confirm"}\n{oops\n',
          'jsonl',
        ),
      ),
    ).rejects.toThrow(/^line 2: not JSON/);
  });

  it('refuses a header that lacks a compared column', async () => {
    const drain = async () => {
      for await (const _row of rows('reference,amount,type,status\nr,1,Deposit,Confirm\n', 'csv'));
    };
    await expect(drain()).rejects.toThrow(/^line 1: the header names no currency column/);
  });
});
