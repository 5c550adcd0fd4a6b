import { type AttributeValue, paginateScan } from '@aws-sdk/client-dynamodb';
import { attributes, indexNamesOf } from '../../lambda/storage/table-definition.js';
import type { StoredItem } from './stored-item.js';
import { windowFrom } from './time-window.js';
import { listByTime, type QueryContext } from './transaction-queries.js';

type Item = Record<string, AttributeValue>;

/** Where a follower stands: durable as JSON, so a restart resumes where it stopped. */
export interface CursorPosition {
  /** The latest `receivedAt` read so far. */
  readonly at: string;
  /** What was read within the overlap before `at` (key and `receivedAt`): not news again. */
  readonly recent: readonly (readonly [key: string, receivedAt: string])[];
}

/** One item received after the cursor: a transaction or a conflicting delivery kept for audit. */
export interface LiveEntry {
  readonly kind: 'transaction' | 'conflict';
  /** The item's key: the reference, or a conflict item's derived key. */
  readonly key: string;
  readonly receivedAt: string;
  /** A transaction's entry in the time index: its listed fields, never the raw body. */
  readonly listed?: StoredItem;
}

export interface LiveCursorOptions {
  /**
   * Each read starts this long before the latest `receivedAt` read: a write stamped earlier
   * but visible later (a slow request, a writer whose clock lags) is still found. @default 10000
   */
  readonly overlapMs?: number;
  /** Also follow conflicting deliveries (the sparse `byConflictOf` index). @default false */
  readonly conflicts?: boolean;
}

/**
 * Follows what the table receives, in the order it was received, without reading the table:
 * each read is one range query per shard of the `byTime` index from the cursor on (and, when
 * asked, the conflict items, a sparse index), so it costs the same at a thousand items as at a
 * million. Reads overlap by `overlapMs`, and an entry already read in the overlap is left out:
 * late rows are seen, none twice. Serves local mode's forwarding and `npm run query -- tail`.
 */
export class LiveCursor {
  #at: string;
  #recent: Map<string, string>;
  readonly #overlapMs: number;

  private constructor(
    private readonly context: QueryContext,
    position: CursorPosition,
    private readonly options: LiveCursorOptions,
  ) {
    this.#at = position.at;
    this.#recent = new Map(position.recent);
    this.#overlapMs = options.overlapMs ?? 10_000;
  }

  /** Resumes at a saved position. */
  static resume(context: QueryContext, position: CursorPosition, options: LiveCursorOptions = {}) {
    return new LiveCursor(context, position, options);
  }

  /** Starts at `now`: what the table holds already is not news, the overlap's entries included. */
  static async startingNow(
    context: QueryContext,
    options: LiveCursorOptions = {},
    now: Date = new Date(),
  ): Promise<LiveCursor> {
    const cursor = new LiveCursor(context, { at: now.toISOString(), recent: [] }, options);
    await cursor.next();
    return cursor;
  }

  /** What to save to resume here. */
  get position(): CursorPosition {
    return { at: this.#at, recent: [...this.#recent] };
  }

  /**
   * The entries received since the last read, oldest first, and moves past them. Call
   * {@link position} afterwards to save it once they are handled.
   */
  async next(): Promise<LiveEntry[]> {
    const since = new Date(Date.parse(this.#at) - this.#overlapMs).toISOString();
    const read = await Promise.all([
      this.transactions(since),
      this.options.conflicts ? this.conflicts(since) : [],
    ]);
    const fresh = read
      .flat()
      .filter((entry) => !this.#recent.has(entry.key))
      .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.key.localeCompare(b.key));
    for (const entry of fresh) {
      this.#recent.set(entry.key, entry.receivedAt);
      if (entry.receivedAt > this.#at) this.#at = entry.receivedAt;
    }
    // Only the overlap needs remembering: anything older is never read again.
    for (const [key, receivedAt] of this.#recent) {
      if (receivedAt < since) this.#recent.delete(key);
    }
    return fresh;
  }

  private async transactions(since: string): Promise<LiveEntry[]> {
    const entries: LiveEntry[] = [];
    for await (const entry of listByTime(this.context, windowFrom(since), {})) {
      entries.push({
        kind: 'transaction',
        key: String(entry[attributes.reference]),
        receivedAt: String(entry[attributes.receivedAt]),
        listed: entry,
      });
    }
    return entries;
  }

  /**
   * Conflict items have no time-ordered index of their own (their index is keyed by the
   * reference they claim), but it holds conflicts only: rare, so a filtered read of it is cheap.
   */
  private async conflicts(since: string): Promise<LiveEntry[]> {
    const entries: LiveEntry[] = [];
    const pages = paginateScan(
      { client: this.context.client },
      {
        TableName: this.context.tableName,
        IndexName: indexNamesOf().byConflictOf,
        FilterExpression: '#at >= :since',
        ProjectionExpression: '#key, #at',
        ExpressionAttributeNames: { '#at': attributes.receivedAt, '#key': attributes.reference },
        ExpressionAttributeValues: { ':since': { S: since } },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) entries.push(conflictEntry(item));
    }
    return entries;
  }
}

function conflictEntry(item: Item): LiveEntry {
  return {
    kind: 'conflict',
    key: item[attributes.reference]?.S ?? '',
    receivedAt: item[attributes.receivedAt]?.S ?? '',
  };
}
