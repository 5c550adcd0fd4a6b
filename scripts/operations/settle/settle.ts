import {
  type AttributeValue,
  ConditionalCheckFailedException,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  type ConflictView,
  conflictIdLength,
  type ReferenceState,
  readReference,
  settlementsOf,
} from '../../table/reference-state.js';
import type { QueryContext } from '../../table/transaction-queries.js';
import { isOpen } from '../transaction-life.js';
import { type Decision, settleUpdate } from './settle-update.js';

/**
 * A settle the command refuses, with the one line that says why: unknown reference, no open
 * conflict, an ambiguous or unknown `--conflict`, a missing reason, or a transaction that changed
 * since it was read. The CLI prints it and exits 2; nothing was written.
 */
export class SettleRefusedError extends Error {
  override name = 'SettleRefusedError';
}

/** Enough for a sentence and a ticket; each correction keeps it twice on a 400 KB item. */
export const maxReasonLength = 1000;

export interface SettleRequest {
  readonly reference: string;
  /** A conflict's id (a prefix of its content's fingerprint), when the reference has several. */
  readonly conflict?: string;
  /** The transaction version the operator reviewed: refused if it is no longer that. */
  readonly expectVersion?: number;
  readonly decision: Decision;
}

export interface SettleResult {
  readonly reference: string;
  readonly conflict: ConflictView;
  readonly accepted: Decision['accept'];
  /** The transaction's version after the write (one more than before for `received`). */
  readonly version: number;
}

/**
 * Records an operator's decision on one open conflict in one conditional write (see
 * settle-update.ts). Reads first, so a refusal can name the reason; the write itself is
 * conditioned on what was read, so nothing that happened between the two is overwritten.
 */
export async function settleConflict(
  context: QueryContext,
  request: SettleRequest,
): Promise<SettleResult> {
  const { reference, decision } = request;
  if (decision.reason.trim() === '') {
    throw new SettleRefusedError('a reason is required (--reason)');
  }
  if (decision.reason.length > maxReasonLength) {
    throw new SettleRefusedError(
      `the reason is longer than ${maxReasonLength} characters: cite a ticket instead`,
    );
  }
  const state = await readReference(context, reference);
  if (!state.transaction) {
    throw new SettleRefusedError(
      `unknown reference ${JSON.stringify(reference)}: nothing is recorded with it`,
    );
  }
  if (request.expectVersion !== undefined && request.expectVersion !== state.version) {
    const correction = state.transaction.correction?.M;
    const by = correction ? `: version ${state.version} was ${correctedBy(correction)}` : '';
    throw new SettleRefusedError(
      `the transaction changed since: it is at version ${state.version}, not ${request.expectVersion}${by}`,
    );
  }
  const conflict = chosenConflict(state, request.conflict);
  try {
    await context.client.send(
      new UpdateItemCommand(
        settleUpdate(context.tableName, state, conflict, decision, context.fields),
      ),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // Both engines: dynalite returns no item with a failed condition, so read it again.
    const now = await readReference(context, reference);
    throw new SettleRefusedError(
      `the transaction changed since it was read: ${whatChanged(state, now)}`,
    );
  }
  return {
    reference,
    conflict,
    accepted: decision.accept,
    version: decision.accept === 'received' ? state.version + 1 : state.version,
  };
}

/** The open conflict to settle: the only one, or the one `id` names. */
function chosenConflict(state: ReferenceState, id: string | undefined): ConflictView {
  const storedFingerprint = state.transaction?.fingerprint?.S;
  const open = state.conflicts.filter((conflict) => isOpen(conflict, storedFingerprint));
  const reference = JSON.stringify(state.reference);
  if (id !== undefined) {
    const wanted = id.toLowerCase();
    const named = state.conflicts.filter((conflict) => conflict.fingerprint.startsWith(wanted));
    if (named.length === 0)
      throw new SettleRefusedError(`no conflict ${id} for reference ${reference}`);
    if (named.length > 1)
      throw new SettleRefusedError(`${named.length} conflicts start with ${id}: give more digits`);
    const [conflict] = named as [ConflictView];
    if (!open.includes(conflict)) {
      throw new SettleRefusedError(
        `no open conflict ${conflict.id} for reference ${reference}: ${closed(conflict)}`,
      );
    }
    return conflict;
  }
  if (open.length === 0) {
    const settled = state.conflicts.length;
    const note =
      settled > 0 ? ` (${settled} settled: npx callback-receiver query conflicts --all)` : '';
    throw new SettleRefusedError(`no open conflict for reference ${reference}${note}`);
  }
  if (open.length > 1) {
    const list = open
      .map((conflict) => {
        const fields = conflict.differences.map((difference) => difference.field).join(', ');
        return `${conflict.id} (first ${conflict.firstReceivedAt}, differs in ${fields || 'nothing'})`;
      })
      .join('; ');
    throw new SettleRefusedError(
      `reference ${reference} has ${open.length} open conflicts, pick one with --conflict: ${list}`,
    );
  }
  return open[0] as ConflictView;
}

function closed(conflict: ConflictView): string {
  const settlement = conflict.settlement;
  if (!settlement) return 'its content is the stored one';
  return `settled ${settlement.resolution} by ${settlement.settledBy} at ${settlement.settledAt} (${JSON.stringify(settlement.reason)})`;
}

/** What a concurrent writer did between the command's read and its write, in one phrase. */
function whatChanged(before: ReferenceState, after: ReferenceState): string {
  if (!after.transaction) return 'the transaction is gone';
  if (after.version !== before.version) {
    const correction = after.transaction.correction?.M ?? {};
    return `version ${before.version} became ${after.version}, ${correctedBy(correction)}`;
  }
  const earlier = settlementsOf(before.transaction);
  const added = [...settlementsOf(after.transaction)].filter(
    ([fingerprint]) => !earlier.has(fingerprint),
  );
  if (added.length > 0) {
    return added
      .map(
        ([fingerprint, settlement]) =>
          `conflict ${fingerprint.slice(0, conflictIdLength)} was settled ${settlement.resolution} by ` +
          `${settlement.settledBy} at ${settlement.settledAt} (${JSON.stringify(settlement.reason)})`,
      )
      .join('; ');
  }
  return 'it was written by someone else; read it again (npx callback-receiver query get)';
}

function correctedBy(correction: Record<string, AttributeValue>): string {
  const { settledBy, settledAt, reason } = correction;
  return `corrected by ${settledBy?.S ?? '?'} at ${settledAt?.S ?? '?'} (${JSON.stringify(reason?.S ?? '')})`;
}
