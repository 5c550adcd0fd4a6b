import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../../../lambda/storage/transaction-item.js';
import type { ReportRow } from '../../../../scripts/operations/reconcile/gateway-report.js';
import {
  type Finding,
  type KeptConflict,
  type RecordedTransaction,
  reconcile,
  tableSources,
} from '../../../../scripts/operations/reconcile/reconcile.js';
import { timeWindow } from '../../../../scripts/table/time-window.js';
import { createTestTable, engines, type TestTable } from '../../../support/engines.js';
import { putBatch } from '../../../support/put-batch.js';

/**
 * Reports and windows larger than one read by key (BatchGetItem's hundred keys): reconcile reads
 * them a batch at a time and still finds every difference. The table sits behind reconcile's own
 * sources interface here, in memory, so a few thousand references cost nothing.
 */

const values = { amount: '100', currency: 'EUR', type: 'Deposit', status: 'Confirm' };
const recordedAs = (reference: string): RecordedTransaction => ({
  ...values,
  reference,
  receivedAt: '2026-11-28T10:00:00.000Z',
});
const row = (reference: string, line: number): ReportRow => ({ ...values, reference, line });
const references = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(5, '0')}`);

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** In-memory sources: `recorded` in the window, `table` by key, and every lookup's size. */
function sources(recorded: readonly string[], table: readonly string[], report: readonly string[]) {
  const lookups: number[] = [];
  const byKey = new Set(table);
  return {
    lookups,
    sources: {
      report: each(report.map((reference, index) => row(reference, index + 2))),
      recorded: () => each(recorded.map(recordedAs)),
      lookup: async (wanted: readonly string[]) => {
        lookups.push(wanted.length);
        return new Map(
          wanted.filter((reference) => byKey.has(reference)).map((r) => [r, recordedAs(r)]),
        );
      },
      conflicts: each<KeptConflict>([]),
    },
  };
}

describe('reconciling more references than one read by key holds', () => {
  it('a report of references never recorded: read a hundred at a time, every one missing', async () => {
    const report = references('never', 150);
    const { sources: from, lookups } = sources([], [], report);
    const findings: Finding[] = [];

    const summary = await reconcile(from, (finding) => {
      findings.push(finding);
    });

    expect(lookups).toEqual([100, 50]);
    expect(summary.missing).toBe(150);
    expect(findings.map((finding) => finding.reference)).toEqual(report);
  });

  it('a few hundredths of the window unreported: read by key a hundred at a time, one deleted since left out', async () => {
    const window = references('window', 2100);
    const unreported = window.slice(1995);
    const deleted = unreported[0] as string;
    const { sources: from, lookups } = sources(
      window,
      window.filter((reference) => reference !== deleted),
      window.slice(0, 1995),
    );
    const unexpected: string[] = [];

    const summary = await reconcile(from, (finding) => {
      if (finding.kind === 'unexpected') unexpected.push(finding.reference);
    });

    expect(lookups).toEqual([100, 5]);
    expect(summary).toMatchObject({ reportRows: 1995, agreeing: 1995, unexpected: 104 });
    expect(unexpected).toEqual(unreported.slice(1));
  });
});

describe.each(engines)(
  'conflicts of more references than one read by key holds, on %s',
  (engine) => {
    let table: TestTable;
    beforeAll(async () => {
      table = await createTestTable(engine);
    });
    afterAll(() => table?.drop());

    it('reads every conflict with the decision kept on its transaction, a hundred references at a time', async () => {
      const claimed = references('claimed', 120);
      const fingerprint = (reference: string) => reference.slice(-5).padEnd(64, '0');
      const items = claimed.flatMap((reference, index): Item[] => {
        const settled = index % 2 === 0;
        return [
          {
            reference: { S: reference },
            record: { S: 'transaction' },
            fingerprint: { S: 'f'.repeat(64) },
            receivedAt: { S: '2026-11-28T09:00:00.000Z' },
            ...(settled
              ? {
                  settlements: {
                    M: {
                      [fingerprint(reference)]: {
                        M: {
                          resolution: { S: 'stored' },
                          settledAt: { S: '2026-11-28T11:00:00.000Z' },
                          settledBy: { S: 'local:ops-a' },
                          reason: { S: 'OPS-5' },
                          version: { N: '1' },
                        },
                      },
                    },
                  },
                }
              : {}),
          },
          {
            reference: { S: `${reference}#conflict#${fingerprint(reference)}` },
            record: { S: 'conflict' },
            conflictOf: { S: reference },
            receivedAt: { S: '2026-11-28T10:00:00.000Z' },
            requestId: { S: `req-${index}` },
            fingerprint: { S: fingerprint(reference) },
            transaction: {
              M: {
                reference: { S: reference },
                amount: { N: '7' },
                currency: { S: 'EUR' },
                type: { S: 'Deposit' },
                status: { S: 'Confirm' },
              },
            },
          },
        ];
      });
      for (let start = 0; start < items.length; start += 25) {
        await putBatch(table.client, table.tableName, items.slice(start, start + 25));
      }
      const window = timeWindow('2026-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z');

      const conflicts: KeptConflict[] = [];
      for await (const conflict of tableSources(table, window).conflicts) conflicts.push(conflict);

      expect(conflicts).toHaveLength(120);
      const byReference = new Map(conflicts.map((conflict) => [conflict.reference, conflict]));
      expect(new Set(byReference.keys())).toEqual(new Set(claimed));
      for (const [index, reference] of claimed.entries()) {
        const conflict = byReference.get(reference);
        expect(conflict).toMatchObject({ amount: '7', requestId: `req-${index}` });
        expect(conflict?.state).toBe(index % 2 === 0 ? 'stored' : 'open');
      }
    });
  },
);
