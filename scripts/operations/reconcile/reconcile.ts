import Big from 'big.js';
import {
  type FieldDeclarations,
  isNumberKind,
  transactionFields,
} from '../../../lambda/callback/transaction-fields.js';
import type { Settlement } from '../../../lambda/settle/settlement.js';
import { attributes } from '../../../lambda/storage/table-definition.js';
import { conflictIdLength, type Item, settlementsOf } from '../../table/reference-state.js';
import { displayValue, type StoredItem, storedItem } from '../../table/stored-item.js';
import type { TimeWindow } from '../../table/time-window.js';
import {
  conflictItems,
  itemsByReference,
  listByTime,
  maxKeysPerBatch,
  type QueryContext,
} from '../../table/transaction-queries.js';
import { type ConflictState, conflictState } from '../transaction-life.js';
import { type ReconciledValues, type ReportRow, reconciledFields } from './gateway-report.js';
import { valuesDigest } from './values-digest.js';
import { WindowIndex } from './window-index.js';

/** What reconcile needs of a recorded transaction: numbers as the exact text DynamoDB holds. */
export interface RecordedTransaction extends ReconciledValues {
  readonly reference: string;
  readonly receivedAt: string;
}

/** A conflicting delivery kept for audit: the reference it claimed, what and when. */
export interface KeptConflict extends RecordedTransaction {
  readonly requestId: string;
  /** Its content's id, what `settle --conflict` takes. */
  readonly id: string;
  /** The operator's decision on it (read from the transaction); absent while it is open. */
  readonly settlement?: Settlement;
  /** Where it stands in the transaction's life: `open` is a difference, the rest are not. */
  readonly state: ConflictState;
}

/** Where reconcile reads from: the report streamed, the table behind a small interface. */
export interface ReconcileSources {
  readonly report: AsyncIterable<ReportRow>;
  /**
   * Everything recorded in the window, read anew at each call: once, and a second time when
   * many references of the window are absent from the report.
   */
  readonly recorded: () => AsyncIterable<RecordedTransaction>;
  /** Recorded transactions by reference (at most {@link maxKeysPerBatch}), wherever received. */
  readonly lookup: (
    references: readonly string[],
  ) => Promise<ReadonlyMap<string, RecordedTransaction>>;
  readonly conflicts: AsyncIterable<KeptConflict>;
  /** The declaration whose `reconciled` fields are compared. @default transactionFields */
  readonly fields?: FieldDeclarations;
}

/**
 * The table's side of {@link ReconcileSources}: the time index, lookups by key, conflicts, all
 * read under the context's declaration.
 */
export function tableSources(
  { client, tableName, fields = transactionFields }: QueryContext,
  window: TimeWindow,
): Omit<ReconcileSources, 'report'> {
  const recorded = recordedUnder(fields);
  // Only what is compared (and `extra`, where an item stored before a field was declared keeps
  // its value): the index's other list fields would be parsed a million times for nothing.
  const compared = [...reconciledFields(fields), 'extra'];
  return {
    fields,
    recorded: async function* () {
      const context = { client, tableName, fields };
      for await (const item of listByTime(context, window, {}, compared)) {
        yield recorded(item);
      }
    },
    lookup: async (references) => {
      const items = await itemsByReference({ client, tableName }, references);
      return new Map(
        [...items].map(([reference, item]) => [reference, recorded(storedItem(item, fields))]),
      );
    },
    conflicts: (async function* () {
      // Decisions live on the transaction item: read them a batch of references at a time.
      let batch: Item[] = [];
      const references = new Set<string>();
      const decided = async function* () {
        const transactions = await itemsByReference({ client, tableName }, [...references]);
        for (const raw of batch) {
          const item = storedItem(raw, fields);
          const reference = displayValue(item[attributes.conflictOf]);
          const fingerprint = raw.fingerprint?.S ?? '';
          const transaction = transactions.get(reference);
          const settlement = settlementsOf(transaction).get(fingerprint);
          const facts = { fingerprint, ...(settlement ? { settlement } : {}) };
          yield {
            ...recorded((item.transaction ?? {}) as StoredItem),
            reference,
            receivedAt: displayValue(item[attributes.receivedAt]),
            requestId: displayValue(item.requestId),
            id: fingerprint.slice(0, conflictIdLength),
            ...(settlement ? { settlement } : {}),
            state: conflictState(facts, transaction?.fingerprint?.S),
          };
        }
        batch = [];
        references.clear();
      };
      for await (const raw of conflictItems({ client, tableName })) {
        const reference = raw[attributes.conflictOf]?.S;
        if (reference === undefined) continue;
        if (!references.has(reference) && references.size === maxKeysPerBatch) yield* decided();
        references.add(reference);
        batch.push(raw);
      }
      if (batch.length > 0) yield* decided();
    })(),
  };
}

/** What reconcile keeps of an item: its key, when, and the reconciled fields as text. */
function recordedUnder(fields: FieldDeclarations) {
  const names = reconciledFields(fields);
  return (item: StoredItem): RecordedTransaction => {
    const text = (name: string) => displayValue(item[name]);
    const values = Object.fromEntries(names.map((name) => [name, text(name)])) as ReconciledValues;
    return {
      ...values,
      reference: text(attributes.reference),
      receivedAt: text(attributes.receivedAt),
    };
  };
}

export interface FieldDifference {
  readonly field: string;
  readonly report: string;
  readonly recorded: string;
}

export type Finding =
  /** In the report, never recorded here: ask the gateway to resend. */
  | {
      readonly kind: 'missing';
      readonly line: number;
      readonly reference: string;
      readonly report: ReconciledValues;
    }
  /** Recorded in the window, absent from the report. */
  | {
      readonly kind: 'unexpected';
      readonly reference: string;
      readonly recorded: RecordedTransaction;
    }
  /**
   * Same reference, other values. `settled`: the reference's conflicts were all decided, so the
   * report contradicts what an operator settled (the recorded values are the decision's).
   */
  | {
      readonly kind: 'mismatch';
      readonly line: number;
      readonly reference: string;
      readonly receivedAt: string;
      readonly differences: readonly FieldDifference[];
      readonly settled?: readonly KeptConflict[];
    }
  /**
   * Deliveries that claimed the reference with other content, refused and kept for audit, at
   * least one still waiting for an operator's decision: a difference until settled.
   */
  | {
      readonly kind: 'conflicts';
      readonly reference: string;
      readonly conflicts: readonly KeptConflict[];
    }
  /**
   * Conflicts an operator settled: the stored transaction is the decision (the received content
   * if accepted, else the stored one), compared with the report like any other. Not a difference.
   */
  | {
      readonly kind: 'settled';
      readonly reference: string;
      readonly conflicts: readonly KeptConflict[];
    };

export type ReconcileSummary = Awaited<ReturnType<typeof reconcile>>;

/**
 * Compares the report with what was recorded, by reference, handing each difference to `found`
 * (awaited: a slow output holds the report back instead of piling differences up).
 * Memory grows with the window, never the report: the report streams, while "recorded but not
 * reported" needs one small entry per reference of the window until the report ends
 * ({@link WindowIndex}: the reference and a digest of its values). A row whose digest differs,
 * or whose reference is not in the window, is read again by key to compare it exactly.
 */
export async function reconcile(
  sources: ReconcileSources,
  found: (finding: Finding) => void | Promise<void>,
) {
  const fields = sources.fields ?? transactionFields;
  const differencesOf = differencesUnder(fields);
  const digestOf = valuesDigest(fields);
  const window = new WindowIndex();
  for await (const transaction of sources.recorded()) {
    window.add(transaction.reference, digestOf(transaction));
  }
  const conflicts = new Map<string, KeptConflict[]>();
  for await (const conflict of sources.conflicts) {
    conflicts.set(conflict.reference, [...(conflicts.get(conflict.reference) ?? []), conflict]);
  }
  const counts = {
    reportRows: 0,
    recordedInWindow: window.size,
    // Report rows recorded before or after the window, found by reference.
    recordedOutsideWindow: 0,
    agreeing: 0,
    missing: 0,
    unexpected: 0,
    mismatch: 0,
    // Conflicting contents kept and not yet decided: each one a difference.
    openConflicts: 0,
    // Conflicting contents an operator settled: listed with the decision, not a difference.
    settledConflicts: 0,
  };

  const conflictsOf = async (reference: string) => {
    const kept = conflicts.get(reference);
    if (kept === undefined) return;
    // Listed once per reference, however often the report names it.
    conflicts.delete(reference);
    const open = kept.filter((conflict) => conflict.state === 'open').length;
    counts.openConflicts += open;
    counts.settledConflicts += kept.length - open;
    await found({ kind: open > 0 ? 'conflicts' : 'settled', reference, conflicts: kept });
  };
  /** The reference's conflicts when none is open, one decided: what a mismatch contradicts. */
  const settledOnly = (reference: string) => {
    const kept = conflicts.get(reference);
    const decided = kept?.some((conflict) => conflict.settlement !== undefined);
    return decided && kept?.every((conflict) => conflict.state !== 'open') ? kept : undefined;
  };

  const compare = async (row: ReportRow, recorded: RecordedTransaction | undefined) => {
    const { line, reference, ...report } = row;
    if (recorded === undefined) {
      counts.missing += 1;
      await found({ kind: 'missing', line, reference, report });
    } else {
      const differences = differencesOf(row, recorded);
      if (differences.length === 0) counts.agreeing += 1;
      else {
        counts.mismatch += 1;
        const settled = settledOnly(reference);
        await found({
          kind: 'mismatch',
          line,
          reference,
          receivedAt: recorded.receivedAt,
          differences,
          ...(settled ? { settled } : {}),
        });
      }
    }
    await conflictsOf(reference);
  };

  // Rows read again by key, a batch at a time: not in the window, or other values than held.
  let pending: { row: ReportRow; inWindow: boolean }[] = [];
  const readPending = async () => {
    const recorded = await sources.lookup(pending.map(({ row }) => row.reference));
    for (const { row, inWindow } of pending) {
      if (!inWindow && recorded.has(row.reference)) counts.recordedOutsideWindow += 1;
      await compare(row, recorded.get(row.reference));
    }
    pending = [];
  };

  for await (const row of sources.report) {
    counts.reportRows += 1;
    const held = window.see(row.reference);
    if (held !== undefined && held === digestOf(row)) {
      counts.agreeing += 1;
      await conflictsOf(row.reference);
    } else if (pending.push({ row, inWindow: held !== undefined }) === maxKeysPerBatch) {
      await readPending();
    }
  }
  if (pending.length > 0) await readPending();

  const unexpected = async (recorded: RecordedTransaction) => {
    counts.unexpected += 1;
    await found({ kind: 'unexpected', reference: recorded.reference, recorded });
    await conflictsOf(recorded.reference);
  };
  // A few unreported references are read by key; many (a report that differs wholesale), by
  // reading the window again, which costs a request per page instead of per hundred.
  if (window.unseenCount > window.size / 20) {
    for await (const recorded of sources.recorded()) {
      if (window.isUnseen(recorded.reference)) {
        window.see(recorded.reference);
        await unexpected(recorded);
      }
    }
  } else {
    let batch: string[] = [];
    const readBatch = async () => {
      const recorded = await sources.lookup(batch);
      for (const reference of batch) {
        const transaction = recorded.get(reference);
        // Deleted since the window was read: nothing left to report.
        if (transaction) await unexpected(transaction);
      }
      batch = [];
    };
    for (const reference of window.unseen()) {
      if (batch.push(reference) === maxKeysPerBatch) await readBatch();
    }
    if (batch.length > 0) await readBatch();
  }
  return counts;
}

/** Numbers compare as exact decimals (`1050.70` = `1050.7`), the rest as text. */
function differencesUnder(fields: FieldDeclarations) {
  const names = reconciledFields(fields);
  return (report: ReconciledValues, recorded: ReconciledValues): FieldDifference[] => {
    const [a, b] = [report as Record<string, string>, recorded as Record<string, string>];
    return names
      .filter((name) => {
        const [x, y] = [a[name] ?? '', b[name] ?? ''];
        return isNumberKind(fields[name] as FieldDeclarations[string])
          ? !sameDecimal(x, y)
          : x !== y;
      })
      .map((field) => ({ field, report: a[field] ?? '', recorded: b[field] ?? '' }));
  };
}

function sameDecimal(a: string, b: string): boolean {
  try {
    return new Big(a).eq(new Big(b));
  } catch {
    // Not a decimal (a damaged item): equal only if the text is.
    return a === b;
  }
}

/** Differences: what makes exit code 1. A settled conflict is not one. */
export function differenceCount(summary: ReconcileSummary): number {
  return summary.missing + summary.unexpected + summary.mismatch + summary.openConflicts;
}

/** True when nothing differs and every conflict met is settled: exit code 0. */
export function agrees(summary: ReconcileSummary): boolean {
  return differenceCount(summary) === 0;
}
