import Big from 'big.js';
import {
  type ComparedField,
  type ComparedValues,
  comparedFields,
  type ReportRow,
} from './gateway-report.js';
import type { KeptConflict, RecordedTransaction } from './recorded-transactions.js';

/** Where reconcile reads from: the report streamed, the table behind a small interface. */
export interface ReconcileSources {
  readonly report: AsyncIterable<ReportRow>;
  /** Everything recorded in the window. */
  readonly recorded: AsyncIterable<RecordedTransaction>;
  /** Recorded transactions by reference (at most {@link lookupBatchSize}), wherever received. */
  readonly lookup: (
    references: readonly string[],
  ) => Promise<ReadonlyMap<string, RecordedTransaction>>;
  readonly conflicts: AsyncIterable<KeptConflict>;
}

export interface FieldDifference {
  readonly field: ComparedField;
  readonly report: string;
  readonly recorded: string;
}

export type Finding =
  /** In the report, never recorded here: ask the gateway to resend. */
  | {
      readonly kind: 'missing';
      readonly line: number;
      readonly reference: string;
      readonly report: ComparedValues;
    }
  /** Recorded in the window, absent from the report. */
  | {
      readonly kind: 'unexpected';
      readonly reference: string;
      readonly recorded: RecordedTransaction;
    }
  /** Same reference, other values. */
  | {
      readonly kind: 'mismatch';
      readonly line: number;
      readonly reference: string;
      readonly receivedAt: string;
      readonly differences: readonly FieldDifference[];
    }
  /** Deliveries that claimed the reference with other content, refused and kept for audit. */
  | {
      readonly kind: 'conflicts';
      readonly reference: string;
      readonly conflicts: readonly KeptConflict[];
    };

export interface ReconcileSummary {
  readonly reportRows: number;
  readonly recordedInWindow: number;
  /** Report rows recorded before or after the window, found by reference. */
  readonly recordedOutsideWindow: number;
  readonly agreeing: number;
  readonly missing: number;
  readonly unexpected: number;
  readonly mismatch: number;
  /** References with conflicting deliveries kept. */
  readonly conflicts: number;
}

export const lookupBatchSize = 100;

interface Held {
  readonly transaction: RecordedTransaction;
  seen: boolean;
}

/**
 * Compares the report with what was recorded, by reference, yielding each difference as it is
 * found and returning the counts.
 *
 * Memory: the report is streamed, one row (and one batch of {@link lookupBatchSize} rows that
 * were not received in the window) at a time. What is held is the window's recorded
 * transactions, one small entry per reference, because "recorded but not in the report" is
 * only known once the whole report is read, and the conflicts kept for audit, which are few.
 * So memory grows with the window, never with the report.
 */
export async function* reconcile(
  sources: ReconcileSources,
): AsyncGenerator<Finding, ReconcileSummary> {
  const window = new Map<string, Held>();
  for await (const transaction of sources.recorded) {
    window.set(transaction.reference, { transaction, seen: false });
  }
  const conflicts = new Map<string, KeptConflict[]>();
  for await (const conflict of sources.conflicts) {
    const list = conflicts.get(conflict.reference) ?? [];
    list.push(conflict);
    conflicts.set(conflict.reference, list);
  }
  const counts = {
    reportRows: 0,
    recordedInWindow: window.size,
    recordedOutsideWindow: 0,
    agreeing: 0,
    missing: 0,
    unexpected: 0,
    mismatch: 0,
    conflicts: 0,
  };

  function* compare(row: ReportRow, recorded: RecordedTransaction | undefined): Generator<Finding> {
    if (recorded === undefined) {
      counts.missing += 1;
      const { line, reference, ...report } = row;
      yield { kind: 'missing', line, reference, report };
    } else {
      const differences = differencesOf(row, recorded);
      if (differences.length === 0) counts.agreeing += 1;
      else {
        counts.mismatch += 1;
        yield {
          kind: 'mismatch',
          line: row.line,
          reference: row.reference,
          receivedAt: recorded.receivedAt,
          differences,
        };
      }
    }
    yield* conflictsOf(row.reference);
  }

  function* conflictsOf(reference: string): Generator<Finding> {
    const kept = conflicts.get(reference);
    if (kept === undefined) return;
    // Listed once per reference, however often the report names it.
    conflicts.delete(reference);
    counts.conflicts += 1;
    yield { kind: 'conflicts', reference, conflicts: kept };
  }

  let outside: ReportRow[] = [];
  async function* lookUpOutside(): AsyncGenerator<Finding> {
    const found = await sources.lookup(outside.map((row) => row.reference));
    for (const row of outside) {
      const recorded = found.get(row.reference);
      if (recorded !== undefined) counts.recordedOutsideWindow += 1;
      yield* compare(row, recorded);
    }
    outside = [];
  }

  for await (const row of sources.report) {
    counts.reportRows += 1;
    const held = window.get(row.reference);
    if (held !== undefined) {
      held.seen = true;
      yield* compare(row, held.transaction);
      continue;
    }
    outside.push(row);
    if (outside.length === lookupBatchSize) yield* lookUpOutside();
  }
  if (outside.length > 0) yield* lookUpOutside();

  for (const { transaction, seen } of window.values()) {
    if (seen) continue;
    counts.unexpected += 1;
    yield { kind: 'unexpected', reference: transaction.reference, recorded: transaction };
    yield* conflictsOf(transaction.reference);
  }
  return counts;
}

/** Amounts compare as exact decimals (`1050.70` = `1050.7`), the rest as text. */
export function differencesOf(report: ComparedValues, recorded: ComparedValues): FieldDifference[] {
  return comparedFields
    .filter((field) =>
      field === 'amount'
        ? !sameDecimal(report.amount, recorded.amount)
        : report[field] !== recorded[field],
    )
    .map((field) => ({ field, report: report[field], recorded: recorded[field] }));
}

function sameDecimal(a: string, b: string): boolean {
  try {
    return new Big(a).eq(new Big(b));
  } catch {
    // Not a decimal (a damaged item): equal only if the text is.
    return a === b;
  }
}

/** True when nothing differs: exit code 0. */
export function agrees(summary: ReconcileSummary): boolean {
  return summary.missing + summary.unexpected + summary.mismatch + summary.conflicts === 0;
}
