import type { TimeWindow } from '../../table/time-window.js';
import {
  type Item,
  itemsByReference,
  itemsInWindow,
  maxKeysPerBatch,
  type QueryContext,
} from '../../table/transaction-queries.js';
import { type Destination, insertRecord, republish } from './republish.js';

/** What replay could not do, one reference (or stream record) at a time. */
export type ReplayProblem =
  | { readonly kind: 'notFound'; readonly reference: string; readonly problem: string }
  | { readonly kind: 'failed'; readonly reference: string; readonly problem: string }
  | { readonly kind: 'unpublishable'; readonly record: string; readonly problem: string };

/** How many were published, and how many of each problem (each also handed to `found`). */
export interface ReplaySummary {
  readonly published: number;
  readonly failed: number;
  readonly unpublishable: number;
  /** References asked for that hold no recorded transaction. */
  readonly notFound: number;
}

/**
 * Republishes recorded transactions a hundred at a time; each problem goes to `found` as it
 * happens (awaited), so memory stays flat over any window. Consumers dedupe. `handled` is told
 * how many references or transactions each batch dealt with (progress).
 */
export async function replayTransactions(
  dependencies: Destination & QueryContext,
  selection: { readonly references: readonly string[] } | { readonly window: TimeWindow },
  found: (problem: ReplayProblem) => void | Promise<void> = () => {},
  handled: (count: number) => void = () => {},
): Promise<ReplaySummary> {
  const counts = { published: 0, failed: 0, unpublishable: 0, notFound: 0 };
  const report = async (problem: ReplayProblem) => {
    counts[problem.kind] += 1;
    await found(problem);
  };
  const send = async (items: readonly Item[]) => {
    const outcome = await republish(items.map(insertRecord), dependencies);
    counts.published += outcome.published.length;
    for (const failed of outcome.failed) await report({ kind: 'failed', ...failed });
    for (const record of outcome.unpublishable) await report({ kind: 'unpublishable', ...record });
  };
  if ('references' in selection) {
    for (let start = 0; start < selection.references.length; start += maxKeysPerBatch) {
      const references = selection.references.slice(start, start + maxKeysPerBatch);
      const found = await itemsByReference(dependencies, references);
      for (const reference of references.filter((reference) => !found.has(reference))) {
        await report({ kind: 'notFound', reference, problem: 'no recorded transaction' });
      }
      // In the order asked for, each once.
      const items = [...new Set(references)].map((reference) => found.get(reference));
      await send(items.filter((item) => item !== undefined));
      handled(references.length);
    }
  } else {
    for await (const items of itemsInWindow(dependencies, selection.window)) {
      await send(items);
      handled(items.length);
    }
  }
  return counts;
}
