import { mkdir, open, readFile } from 'node:fs/promises';
import type { DynamoDBRecord } from 'aws-lambda';
import { writeAtomically } from '../../cli/atomic-file.js';
import type { EventFiles } from './event-files.js';

/** One change of the table, as the stream would carry it, and what it leaves the item as. */
export interface OutboxEntry {
  /** The item's key (`reference`). */
  readonly key: string;
  /** Digest of the item after the change; `null` when the change removed it. */
  readonly digest: string | null;
  readonly record: DynamoDBRecord;
}

/** How many items' digests a fold keeps: the latest changed, far more than a read can repeat. */
export const rememberedItems = 10_000;

/**
 * Local mode's stand-in for the table stream, durable in the data folder: the digests of the
 * items last recorded (a snapshot), then every change seen since, appended (JSON Lines, synced)
 * before anything is sent; and which are done with. An item already recorded as it is now is
 * never appended again, so a read repeated after a crash adds nothing. The snapshot keeps the
 * latest {@link rememberedItems} items only: a read is never repeated further back, and a
 * snapshot of every item ever forwarded would be rewritten whole at each fold.
 */
export class Outbox {
  /** Key → digest of the items last recorded, least recently changed first. */
  readonly seen = new Map<string, string>();
  readonly entries: OutboxEntry[] = [];
  #forwarded = 0;
  /** Entries done with past the first one still owed (events are sent concurrently). */
  readonly #done = new Set<number>();
  #started: boolean;
  #chain: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly files: EventFiles,
    started: boolean,
    private readonly remember: number,
  ) {
    this.#started = started;
  }

  /** False until the stream has a snapshot to compare the table with. */
  get started(): boolean {
    return this.#started;
  }

  /** Reads the folder's outbox; `started` is false when it has no snapshot yet. */
  static async open(files: EventFiles, remember = rememberedItems): Promise<Outbox> {
    await mkdir(files.dir, { recursive: true, mode: 0o700 });
    const snapshot = await readJson<{ items: Record<string, string> }>(files.snapshot);
    const outbox = new Outbox(files, snapshot !== undefined, remember);
    for (const [key, digest] of Object.entries(snapshot?.items ?? {})) outbox.seen.set(key, digest);
    const text = await readFile(files.outbox, 'utf8').catch(ifMissing(''));
    const lines = text.split('\n');
    // A line cut short by a crash was never complete: the next poll finds its change again.
    const complete = lines.slice(0, -1);
    for (const [index, line] of complete.entries()) {
      try {
        outbox.apply(JSON.parse(line) as OutboxEntry);
      } catch (error) {
        throw new Error(
          `${files.outbox} line ${index + 1} is not JSON: fix or delete the events/ folder (its events are then not forwarded)`,
          { cause: error },
        );
      }
    }
    if (text !== '' && !text.endsWith('\n')) {
      await writeAtomically(files.outbox, complete.map((line) => `${line}\n`).join(''));
    }
    const saved = await readJson<{ count: number; done?: number[] }>(files.forwarded);
    const cursor = saved?.count ?? 0;
    // A cursor past the end is one left by a compaction cut short (see compact).
    if (cursor <= outbox.entries.length) {
      outbox.#forwarded = cursor;
      for (const index of saved?.done ?? []) {
        if (index > cursor && index < outbox.entries.length) outbox.#done.add(index);
      }
    }
    await outbox.compact();
    return outbox;
  }

  /** Starts the stream at `items` (key → digest): what is in the table now is not news. */
  async start(items: ReadonlyMap<string, string>): Promise<void> {
    await writeAtomically(
      this.files.snapshot,
      JSON.stringify({ items: Object.fromEntries(items) }),
    );
    for (const [key, digest] of items) this.seen.set(key, digest);
    this.#started = true;
  }

  /** Appends changes durably (one write, synced), then counts them as seen. */
  append(entries: readonly OutboxEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return this.serial(() => this.write(entries));
  }

  /** Compacts (see compact) once at least `threshold` entries are all done with. */
  compactWhenDone(threshold: number): Promise<void> {
    return this.serial(async () => {
      if (this.entries.length >= threshold) await this.compact();
    });
  }

  /** Appends and compactions one after the other: a compaction never drops a fresh append. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(work, work);
    this.#chain = next.catch(() => {});
    return next;
  }

  private async write(entries: readonly OutboxEntry[]): Promise<void> {
    const handle = await open(this.files.outbox, 'a', 0o600);
    try {
      await handle.appendFile(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    for (const entry of entries) this.apply(entry);
  }

  get forwarded(): number {
    return this.#forwarded;
  }

  /** Entries not done with yet. */
  get owed(): number {
    return this.entries.length - this.#forwarded - this.#done.size;
  }

  /** Whether the entry at `index` is done with (delivered, dead-lettered or no event). */
  isDone(index: number): boolean {
    return index < this.#forwarded || this.#done.has(index);
  }

  /**
   * Marks the entry at `index` done with. The state is a count of entries done from the start
   * plus those done past it, replaced whole (never half-written), one write after the other.
   */
  markDone(index: number): Promise<void> {
    return this.serial(async () => {
      this.#done.add(index);
      while (this.#done.delete(this.#forwarded)) this.#forwarded += 1;
      const done = [...this.#done].sort((a, b) => a - b);
      await writeAtomically(
        this.files.forwarded,
        JSON.stringify({ count: this.#forwarded, ...(done.length > 0 && { done }) }),
      );
    });
  }

  /** Marks the first entry still owed done with. */
  markForwarded(): Promise<void> {
    return this.markDone(this.#forwarded);
  }

  /**
   * When every entry is done with, the snapshot absorbs them and the outbox starts empty, so it
   * does not grow for ever. Each step is a rename; a crash between them leaves entries the
   * snapshot already holds (applied again, harmlessly) or a cursor past the end (reset on open).
   */
  private async compact(): Promise<void> {
    if (this.entries.length === 0 || this.#forwarded < this.entries.length) return;
    for (const key of this.seen.keys()) {
      if (this.seen.size <= this.remember) break;
      this.seen.delete(key);
    }
    await this.start(new Map(this.seen));
    await writeAtomically(this.files.outbox, '');
    this.entries.length = 0;
    this.#forwarded = 0;
    this.#done.clear();
    await writeAtomically(this.files.forwarded, JSON.stringify({ count: 0 }));
  }

  private apply(entry: OutboxEntry): void {
    // Deleted first, so the map's order is the order of the latest change.
    this.seen.delete(entry.key);
    if (entry.digest !== null) this.seen.set(entry.key, entry.digest);
    this.entries.push(entry);
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  const text = await readFile(file, 'utf8').catch(ifMissing(undefined));
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

function ifMissing<T>(value: T) {
  return (error: NodeJS.ErrnoException): T => {
    if (error.code === 'ENOENT') return value;
    throw error;
  };
}
