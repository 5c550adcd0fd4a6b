import { describe, expect, it } from 'vitest';
import { transactionFields } from '../../../../lambda/callback/transaction-fields.js';
import type { ReportRow } from '../../../../scripts/operations/reconcile/gateway-report.js';
import {
  type Finding,
  type RecordedTransaction,
  reconcile,
} from '../../../../scripts/operations/reconcile/reconcile.js';
import { valuesDigest } from '../../../../scripts/operations/reconcile/values-digest.js';

/**
 * reconcile holds a digest per reference of the window, not its values: these prove that rows
 * agreeing by digest are never read again, that differing ones are read and compared exactly,
 * and that unreported references are found both by key (a few) and by a second read (many).
 */

const recordedAt = (i: number): RecordedTransaction => ({
  reference: `ref-${i}`,
  receivedAt: `2026-03-14T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
  amount: `${100 + i}.50`,
  currency: 'TRY',
  type: 'Deposit',
  status: 'Confirm',
});

const rowOf = (i: number, overrides: Partial<RecordedTransaction> = {}): ReportRow => {
  const { receivedAt: _, ...values } = { ...recordedAt(i), ...overrides };
  return { line: i + 2, ...values };
};

/** An in-memory table of `size` transactions, counting what is read again and how. */
function memorySources(size: number, report: readonly ReportRow[]) {
  const reads = { windowPasses: 0, lookedUp: [] as string[] };
  const table = new Map(Array.from({ length: size }, (_, i) => [`ref-${i}`, recordedAt(i)]));
  const sources = {
    report: (async function* () {
      yield* report;
    })(),
    recorded: async function* () {
      reads.windowPasses += 1;
      yield* table.values();
    },
    lookup: async (references: readonly string[]) => {
      reads.lookedUp.push(...references);
      return new Map(
        references.flatMap((r) => {
          const found = table.get(r);
          return found ? [[r, found] as const] : [];
        }),
      );
    },
    conflicts: (async function* () {})(),
  };
  return { sources, reads };
}

async function run(size: number, report: readonly ReportRow[]) {
  const { sources, reads } = memorySources(size, report);
  const findings: Finding[] = [];
  const summary = await reconcile(sources, (finding) => {
    findings.push(finding);
  });
  return { summary, findings, reads };
}

describe('reconcile over a window held as digests', () => {
  it('reads again only the rows whose values differ, and reports their exact differences', async () => {
    const report = Array.from({ length: 200 }, (_, i) =>
      i === 7 ? rowOf(i, { amount: '999' }) : i === 9 ? rowOf(i, { amount: `${109}.5` }) : rowOf(i),
    );

    const { summary, findings, reads } = await run(200, report);

    expect(reads.lookedUp).toEqual(['ref-7']);
    expect(findings).toEqual([
      {
        kind: 'mismatch',
        line: 9,
        reference: 'ref-7',
        receivedAt: recordedAt(7).receivedAt,
        differences: [{ field: 'amount', report: '999', recorded: '107.50' }],
      },
    ]);
    expect(summary).toMatchObject({ agreeing: 199, mismatch: 1, reportRows: 200 });
  });

  it('finds a few unreported references by key, without reading the window again', async () => {
    const report = Array.from({ length: 198 }, (_, i) => rowOf(i));

    const { summary, findings, reads } = await run(200, report);

    expect(reads.windowPasses).toBe(1);
    expect(reads.lookedUp).toEqual(['ref-198', 'ref-199']);
    expect(findings.map((f) => `${f.kind} ${f.reference}`)).toEqual([
      'unexpected ref-198',
      'unexpected ref-199',
    ]);
    expect(findings[0]).toMatchObject({ recorded: recordedAt(198) });
    expect(summary).toMatchObject({ unexpected: 2, agreeing: 198 });
  });

  it('finds many unreported references by reading the window a second time', async () => {
    const report = Array.from({ length: 100 }, (_, i) => rowOf(i));

    const { summary, findings, reads } = await run(200, report);

    expect(reads.windowPasses).toBe(2);
    expect(reads.lookedUp).toEqual([]);
    expect(findings.map((f) => f.reference)).toEqual(
      Array.from({ length: 100 }, (_, i) => `ref-${100 + i}`),
    );
    expect(summary).toMatchObject({ unexpected: 100, agreeing: 100, recordedInWindow: 200 });
  });

  it('looks up rows outside the window and counts those recorded elsewhere', async () => {
    const { summary, findings } = await run(10, [rowOf(3), rowOf(42)]);

    expect(findings.filter((f) => f.kind === 'missing').map((f) => f.reference)).toEqual([
      'ref-42',
    ]);
    expect(summary).toMatchObject({ missing: 1, agreeing: 1, unexpected: 9 });
  });
});

describe('a damaged item in the window', () => {
  it('an amount that is not a decimal is a mismatch, compared as the text it holds', async () => {
    const damaged = { ...recordedAt(0), amount: 'n/a' };
    const findings: Finding[] = [];

    const summary = await reconcile(
      {
        report: (async function* () {
          yield rowOf(0);
        })(),
        recorded: async function* () {
          yield damaged;
        },
        lookup: async () => new Map([[damaged.reference, damaged]]),
        conflicts: (async function* () {})(),
      },
      (finding) => {
        findings.push(finding);
      },
    );

    expect(summary).toMatchObject({ mismatch: 1, agreeing: 0 });
    expect(findings).toEqual([
      expect.objectContaining({
        kind: 'mismatch',
        differences: [{ field: 'amount', report: '100.50', recorded: 'n/a' }],
      }),
    ]);
  });
});

describe('valuesDigest', () => {
  const digest = valuesDigest(transactionFields);
  const values = { amount: '1050.70', currency: 'TRY', type: 'Deposit', status: 'Confirm' };

  it('digests equal decimals alike and other values apart, in 52 bits', () => {
    const same = [
      digest(values),
      digest({ ...values, amount: '1050.7' }),
      digest({ ...values, amount: '1050.700' }),
    ];
    const other = [
      digest({ ...values, amount: '1050.71' }),
      digest({ ...values, currency: 'USD' }),
      digest({ ...values, status: 'Reject' }),
      digest({ ...values, amount: 'x1050.7' }),
    ];

    expect(new Set(same).size).toBe(1);
    expect(new Set([...other, same[0]]).size).toBe(5);
    for (const d of [...same, ...other]) {
      expect(Number.isSafeInteger(d) && d >= 0 && d < 2 ** 52).toBe(true);
    }
  });
});
