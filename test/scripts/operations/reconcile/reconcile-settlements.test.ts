import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SerializableValue } from '../../../../lambda/json/json-text.js';
import { stringifyJson } from '../../../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import { readReport } from '../../../../scripts/operations/reconcile/gateway-report.js';
import {
  agrees,
  type Finding,
  reconcile,
  tableSources,
} from '../../../../scripts/operations/reconcile/reconcile.js';
import {
  findingShape,
  summaryText,
} from '../../../../scripts/operations/reconcile/reconcile-output.js';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import type { Decision } from '../../../../scripts/operations/settle/settle-update.js';
import { timeWindow } from '../../../../scripts/table/time-window.js';
import { createTestTable, engines, type TestTable } from '../../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../../support/fixtures.js';
import { receiverWith } from '../../../support/receiver.js';

const decision = (accept: Decision['accept']): Decision => ({
  accept,
  actor: 'local:ops-a',
  reason: `ticket OPS-9: gateway says ${accept}`,
  at: new Date().toISOString(),
});

/**
 * Reconcile after conflicts were settled, the way an operations team spends a day: the gateway's
 * report holds the content each decision kept, so settled conflicts are listed with their
 * decision and counted, never a difference; an open one, or a report that contradicts a
 * decision, is one.
 */
describe.each(engines)('reconcile knows settlements, on %s', (engine) => {
  let table: TestTable;
  let invoke: ReturnType<typeof receiverWith>;
  // A table per test: the window holds only what the test recorded.
  beforeEach(async () => {
    table = await createTestTable(engine);
    invoke = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName));
  });
  afterEach(() => table?.drop());

  const deliver = async (fields: Record<string, SerializableValue>) =>
    (await invoke(callbackEvent(signed(fields)))).statusCode;
  /** A stored transaction and a conflicting delivery of it, 409 kept. */
  const conflicted = async () => {
    const stored = transaction({ amount: 1000, currency: 'EUR' });
    const received = { ...stored, amount: 1250 };
    expect(await deliver(stored)).toBe(204);
    expect(await deliver(received)).toBe(409);
    return { stored, received, reference: stored.reference as string };
  };
  const row = (fields: Record<string, SerializableValue>) => {
    const { reference, amount, currency, type, status } = fields;
    return { reference, amount, currency, type, status } as Record<string, SerializableValue>;
  };
  const run = async (report: readonly Record<string, SerializableValue>[]) => {
    const window = timeWindow(
      new Date(Date.now() - 120_000).toISOString(),
      new Date(Date.now() + 60_000).toISOString(),
    );
    const findings: Finding[] = [];
    const lines = report.map((r) => stringifyJson(r)).join('\n');
    const summary = await reconcile(
      {
        report: readReport(Readable.from([lines]), 'jsonl'),
        ...tableSources({ client: table.client, tableName: table.tableName }, window),
      },
      (finding) => {
        findings.push(finding);
      },
    );
    return { summary, findings };
  };

  it('settled both ways and reported as decided: exit 0, listed with the decision in every format', async () => {
    const accepted = await conflicted();
    const kept = await conflicted();
    const plain = transaction({ amount: 700 });
    expect(await deliver(plain)).toBe(204);
    await settleConflict(table, {
      reference: accepted.reference,
      decision: decision('received'),
    });
    await settleConflict(table, { reference: kept.reference, decision: decision('stored') });

    // The gateway reports the corrected amount for one, the stored for the other.
    const { summary, findings } = await run([row(accepted.received), row(kept.stored), row(plain)]);

    expect(summary).toMatchObject({
      agreeing: 3,
      missing: 0,
      unexpected: 0,
      mismatch: 0,
      openConflicts: 0,
      settledConflicts: 2,
    });
    expect(agrees(summary)).toBe(true);
    expect(summaryText(summary)).toContain('open conflicts 0, settled conflicts 2');
    const settled = findings.filter((finding) => finding.kind === 'settled');
    expect(settled.map((finding) => finding.reference).sort()).toEqual(
      [accepted.reference, kept.reference].sort(),
    );
    const acceptedFinding = settled.find((finding) => finding.reference === accepted.reference);
    expect(
      acceptedFinding?.kind === 'settled' && acceptedFinding.conflicts[0]?.settlement,
    ).toMatchObject({
      resolution: 'received',
      settledBy: 'local:ops-a',
    });
    // CSV and JSON carry the decision too.
    const csv = findingShape.csvRows(acceptedFinding as Finding);
    const head = [...findingShape.csvHead];
    const csvRow = Object.fromEntries(head.map((name, i) => [name, csv[0]?.[i]]));
    expect(csvRow).toMatchObject({
      kind: 'settled',
      reference: accepted.reference,
      state: 'received',
      settledBy: 'local:ops-a',
    });
    expect(JSON.parse(JSON.stringify(findingShape.json(acceptedFinding as Finding)))).toMatchObject(
      { kind: 'settled', conflicts: [{ settlement: { resolution: 'received' } }] },
    );
  });

  it('an open conflict is a difference (exit 1), listed as open', async () => {
    const open = await conflicted();
    const { summary, findings } = await run([row(open.stored)]);
    expect(summary).toMatchObject({
      agreeing: 1,
      missing: 0,
      unexpected: 0,
      mismatch: 0,
      openConflicts: 1,
      settledConflicts: 0,
    });
    expect(agrees(summary)).toBe(false);
    const finding = findings.find((f) => f.kind === 'conflicts');
    expect(finding?.reference).toBe(open.reference);
    expect(finding?.kind === 'conflicts' && finding.conflicts[0]?.settlement).toBeUndefined();
  });

  it('a report that contradicts a settlement is a mismatch that names the decision', async () => {
    const kept = await conflicted();
    await settleConflict(table, { reference: kept.reference, decision: decision('stored') });
    // The operator kept 1000; the gateway's report says 1250.
    const { summary, findings } = await run([row(kept.received)]);
    expect(summary).toMatchObject({
      missing: 0,
      unexpected: 0,
      mismatch: 1,
      openConflicts: 0,
      settledConflicts: 1,
    });
    expect(agrees(summary)).toBe(false);
    const mismatch = findings.find((f) => f.kind === 'mismatch');
    expect(mismatch?.kind === 'mismatch' && mismatch.settled?.[0]?.settlement?.resolution).toBe(
      'stored',
    );
    const csv = findingShape.csvRows(mismatch as Finding);
    expect(csv[0]?.at(-1)).toMatch(/^contradicts the settlement: local:ops-a kept the stored/);
  });
});
