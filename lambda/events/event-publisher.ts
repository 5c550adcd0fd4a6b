import {
  PutEventsCommand,
  type PutEventsCommandOutput,
  type PutEventsRequestEntry,
} from '@aws-sdk/client-eventbridge';
import { withAttemptSignal } from '../budget/attempts.js';
import { isRetryable } from '../budget/retryable.js';
import { sleep, type TimeBudget, unlimitedBudget } from '../budget/time-budget.js';
import { limitDefaults } from '../config/config.js';

/** EventBridge's limits for one PutEvents request. */
export const maxEntriesPerRequest = 10;
/** The entries of one request must total less than 256 KB, counted as {@link entrySize} does. */
export const maxRequestBytes = 256 * 1024 - 1;

/** Entry error codes that EventBridge documents as retryable. */
const retryableErrorCodes = new Set(['InternalFailure', 'ThrottlingException']);

/** What became of one entry. */
export type EntryOutcome =
  | { readonly status: 'published'; readonly eventId: string }
  /** `errorMessage`: EventBridge's, or the SDK's when the call failed (what an operator reads). */
  | { readonly status: 'failed'; readonly errorCode: string; readonly errorMessage?: string }
  /**
   * Never sent: an earlier entry failed, or the time left could not hold another PutEvents (see
   * {@link EventBridgePublisher.publish}).
   */
  | { readonly status: 'not-sent' };

/** The one SDK call the publisher makes; an `EventBridgeClient`, or a fake in tests. */
export interface PutEventsClient {
  send(
    command: PutEventsCommand,
    options?: { abortSignal?: AbortSignal },
  ): Promise<PutEventsCommandOutput>;
}

export interface EventPublisher {
  publish(entries: readonly PutEventsRequestEntry[], budget?: TimeBudget): Promise<EntryOutcome[]>;
}

export interface EventBridgePublisherOptions {
  /**
   * Attempts per entry: an entry that fails with a retryable code is sent again, and so is a
   * whole call that failed before EventBridge could take it (throttling, 5xx, refused
   * connection). The client makes one attempt per call, so the retries here can respect the
   * time budget.
   * @default 3
   */
  readonly maxEntryAttempts?: number;
  /**
   * How long one PutEvents may take; it is aborted then, and none starts unless the budget can
   * hold all of it.
   * @default `limitDefaults.eventBridge.timeoutMs`
   */
  readonly attemptTimeoutMs?: number;
  /**
   * Wait before re-sending the failed entries of a request.
   * @default full jitter over 100 ms × 2^(attempt - 1)
   */
  readonly backoffMs?: (attempt: number) => number;
}

/**
 * Publishes entries in PutEvents requests of at most ten entries and 256 KB, in order. A failed
 * entry is re-sent alone (its request's other entries are already on the bus) up to
 * {@link EventBridgePublisherOptions.maxEntryAttempts} times.
 */
export class EventBridgePublisher implements EventPublisher {
  private readonly maxEntryAttempts: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly attemptTimeoutMs: number;

  constructor(
    private readonly client: PutEventsClient,
    options: EventBridgePublisherOptions = {},
  ) {
    this.maxEntryAttempts = options.maxEntryAttempts ?? limitDefaults.eventBridge.maxAttempts;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? limitDefaults.eventBridge.timeoutMs;
    this.backoffMs = options.backoffMs ?? ((attempt) => Math.random() * 100 * 2 ** (attempt - 1));
  }

  /**
   * One outcome per entry, in order. Requests go out one after another, and after a request that
   * keeps a failure the rest are `not-sent`: the stream redelivers everything from the first
   * failed record onward anyway, so sending them now would only publish them twice. The same
   * holds once `budget` cannot hold another whole PutEvents: the rest stay `not-sent`, so the
   * invocation ends in time and the stream redelivers them, instead of Lambda timing the
   * invocation out and redelivering what was already published.
   */
  async publish(
    entries: readonly PutEventsRequestEntry[],
    budget: TimeBudget = unlimitedBudget(),
  ): Promise<EntryOutcome[]> {
    const outcomes: EntryOutcome[] = entries.map(() => ({ status: 'not-sent' }));
    for (const request of requests(entries)) {
      const allPublished = await this.send(entries, request, outcomes, budget);
      if (!allPublished) break;
    }
    return outcomes;
  }

  /** Sends the entries at `indexes`, records their outcomes; true when all were published. */
  private async send(
    entries: readonly PutEventsRequestEntry[],
    indexes: readonly number[],
    outcomes: EntryOutcome[],
    budget: TimeBudget,
  ): Promise<boolean> {
    let pending = indexes;
    for (let attempt = 1; ; attempt++) {
      // Not started unless it can finish: the entries stay `not-sent` (or keep their failure).
      if (budget.remainingMs() < this.attemptTimeoutMs) return false;
      const retry: number[] = [];
      try {
        const command = new PutEventsCommand({
          Entries: pending.map((index) => entries[index] as PutEventsRequestEntry),
        });
        const output = await withAttemptSignal(budget, this.attemptTimeoutMs, (abortSignal) =>
          this.client.send(command, { abortSignal }),
        );
        pending.forEach((index, position) => {
          const result = output.Entries?.[position];
          if (result?.EventId !== undefined && result.ErrorCode === undefined) {
            outcomes[index] = { status: 'published', eventId: result.EventId };
          } else {
            const errorCode = result?.ErrorCode ?? 'MissingResultEntry';
            const errorMessage = result?.ErrorMessage;
            outcomes[index] = {
              status: 'failed',
              errorCode,
              ...(errorMessage && { errorMessage }),
            };
            if (retryableErrorCodes.has(errorCode)) retry.push(index);
          }
        });
      } catch (error) {
        const errorCode = error instanceof Error ? error.name : 'UnknownError';
        const errorMessage = error instanceof Error ? error.message : undefined;
        for (const index of pending) {
          outcomes[index] = { status: 'failed', errorCode, ...(errorMessage && { errorMessage }) };
        }
        // A call that timed out or was aborted may have been put: it is not sent again now (the
        // stream redelivers it, and consumers dedupe). One EventBridge refused as a whole is.
        if (!notTaken(error) || attempt >= this.maxEntryAttempts) return false;
        retry.push(...pending);
      }
      if (retry.length === 0 || attempt >= this.maxEntryAttempts) {
        return indexes.every((index) => outcomes[index]?.status === 'published');
      }
      const wait = Math.max(0, this.backoffMs(attempt));
      if (budget.remainingMs() < wait + this.attemptTimeoutMs) return false;
      await sleep(wait);
      pending = retry;
    }
  }
}

/**
 * A failed call EventBridge cannot have applied: refused with an answer (throttling, 5xx) or a
 * connection that was never made. A timeout or abort leaves the outcome unknown.
 */
function notTaken(error: unknown): boolean {
  if (!isRetryable(error) || !(error instanceof Error)) return false;
  return error.name !== 'TimeoutError' && error.name !== 'AbortError';
}

/**
 * The size EventBridge counts for an entry: UTF-8 bytes of source, detail type, detail and
 * resources, and 14 bytes for a time stamp.
 */
export function entrySize(entry: PutEventsRequestEntry): number {
  const bytes = (text: string | undefined) =>
    text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  let size = entry.Time === undefined ? 0 : 14;
  size += bytes(entry.Source) + bytes(entry.DetailType) + bytes(entry.Detail);
  for (const resource of entry.Resources ?? []) size += bytes(resource);
  return size;
}

/** Consecutive runs of entry indexes that fit one request each. */
export function requests(entries: readonly PutEventsRequestEntry[]): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  let runBytes = 0;
  entries.forEach((entry, index) => {
    const size = entrySize(entry);
    if (
      run.length === maxEntriesPerRequest ||
      (run.length > 0 && runBytes + size > maxRequestBytes)
    ) {
      runs.push(run);
      run = [];
      runBytes = 0;
    }
    // An entry over the limit on its own still goes alone: EventBridge refuses it, and the
    // refusal sends its record down the failure path instead of stalling here.
    run.push(index);
    runBytes += size;
  });
  if (run.length > 0) runs.push(run);
  return runs;
}
