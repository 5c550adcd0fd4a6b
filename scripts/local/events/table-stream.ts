import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, AttributeValue as LambdaAttribute } from 'aws-lambda';
import type { TransactionFields } from '../../../lambda/callback/transaction-fields.js';
import { attributes } from '../../../lambda/storage/table-definition.js';
import { writeAtomically } from '../../cli/atomic-file.js';
import { takeChanges } from '../../operations/events/change-notes.js';
import type { EventFiles } from '../../operations/events/event-files.js';
import type { Outbox, OutboxEntry } from '../../operations/events/outbox.js';
import { lambdaJson } from '../../operations/events/republish.js';
import { itemsByKey } from '../../table/items-by-key.js';
import { type CursorPosition, LiveCursor } from '../../table/live-cursor.js';

type Item = Record<string, AttributeValue>;

export interface TableStreamOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** The declaration the table's indexes are named by. @default transactionFields */
  readonly fields?: TransactionFields;
  readonly files: EventFiles;
  readonly outbox: Outbox;
  /** Pause between two reads when nothing woke the stream. @default 1000 */
  readonly pollMs?: number;
  /** Told after changes were appended. */
  readonly onAppended: () => void;
  readonly onError: (error: unknown) => void;
}

/**
 * What DynamoDB Streams does for the deployed table, done without one (dynalite has none, and
 * the tools write through the engine, not the server): what the table receives is followed
 * through its time index by a live cursor saved in the data folder, and what tools change in
 * place comes from their notes (change-notes.ts). A new item is an INSERT, a noted one a MODIFY,
 * each with its new image (the stack's stream is NEW_IMAGE). Each read costs the same whatever
 * the table holds. An item whose digest the outbox already holds is not appended again, so a
 * read repeated after a crash (outbox appended, cursor not yet saved) adds nothing twice.
 */
export function startTableStream(options: TableStreamOptions) {
  const { outbox, files, onAppended, onError } = options;
  const { client, tableName, fields } = options;
  const context = { client, tableName, ...(fields && { fields }) };
  const follow = { conflicts: true } as const;
  const pollMs = options.pollMs ?? 1_000;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let cursor: LiveCursor;
  let saved: CursorPosition;
  // Woken during a read: the next read follows at once rather than after the pause.
  let woken = false;

  const save = async (position: CursorPosition) => {
    await writeAtomically(files.cursor, JSON.stringify(position));
    saved = position;
  };

  const ready = (async () => {
    const found = await readFile(files.cursor, 'utf8').then(
      (text) => JSON.parse(text) as CursorPosition,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      },
    );
    cursor = found
      ? LiveCursor.resume(context, found, follow)
      : await LiveCursor.startingNow(context, follow);
    await save(cursor.position);
    if (!outbox.started) await outbox.start(new Map());
  })();

  const poll = async () => {
    try {
      const entries = await cursor.next();
      const notes = await takeChanges(files);
      const received = await readItems(
        context,
        entries.map((entry) => entry.key),
      );
      const noted = await readItems(context, notes.references);
      const changes = changesOf(outbox, [
        ...entries.flatMap(({ key }) => {
          const item = received.get(key);
          return item ? [{ key, item, inserted: true }] : [];
        }),
        ...notes.references.flatMap((key) => {
          const item = noted.get(key);
          return item ? [{ key, item, inserted: false }] : [];
        }),
      ]);
      await outbox.append(changes);
      await save(cursor.position);
      await notes.done();
      if (changes.length > 0) onAppended();
    } catch (error) {
      // Read again from where the last recorded read left off: nothing is skipped.
      cursor = LiveCursor.resume(context, saved, follow);
      onError(error);
    }
  };
  const schedule = (waitMs: number) => {
    if (stopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      woken = false;
      running = poll().then(() => schedule(woken ? 20 : pollMs));
    }, waitMs);
  };

  ready.then(
    () => schedule(0),
    () => {},
  );
  return {
    /** Resolves once the cursor is placed (at now, the first time in a folder). */
    ready,
    /** Something was written (a callback answered): read soon rather than at the next pause. */
    wake(): void {
      if (stopping) return;
      if (timer === undefined) woken = true;
      else schedule(20);
    },
    /** Reads once more (changes made just before the stop), then stops. */
    async stop(): Promise<void> {
      stopping = true;
      clearTimeout(timer);
      await ready;
      await running;
      await poll();
    },
  };
}

/** The changes to append: items whose digest the outbox does not hold yet, in the given order. */
function changesOf(
  outbox: Outbox,
  read: readonly { key: string; item: Item; inserted: boolean }[],
): OutboxEntry[] {
  const now = Date.now();
  const digests = new Map<string, string>();
  const entries: OutboxEntry[] = [];
  for (const { key, item, inserted } of read) {
    const itemDigest = digest(item);
    const before = digests.get(key) ?? outbox.seen.get(key);
    if (before === itemDigest) continue;
    digests.set(key, itemDigest);
    const name = inserted && before === undefined ? 'INSERT' : 'MODIFY';
    entries.push({
      key,
      digest: itemDigest,
      record: streamRecord(name, key, item, now, entries.length),
    });
  }
  return entries;
}

/** The items with these keys, whole and consistently read, a hundred per request. */
async function readItems(
  context: { client: DynamoDBClient; tableName: string },
  keys: readonly string[],
): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (const item of await itemsByKey(context, attributes.reference, keys, { consistent: true })) {
    const key = item[attributes.reference]?.S;
    if (key !== undefined) found.set(key, item);
  }
  return found;
}

/** The record as Lambda receives it from the table's stream. */
function streamRecord(
  name: 'INSERT' | 'MODIFY',
  key: string,
  item: Item,
  now: number,
  index: number,
): DynamoDBRecord {
  return {
    eventID: randomUUID(),
    eventName: name,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(now / 1000),
      Keys: { [attributes.reference]: { S: key } },
      NewImage: lambdaJson<Record<string, LambdaAttribute>>(item),
      SequenceNumber: `${now}${String(index).padStart(6, '0')}`,
      StreamViewType: 'NEW_IMAGE',
    },
  };
}

/** SHA-256 of the item with members in name order: the same item always gives the same digest. */
function digest(item: Item): string {
  return createHash('sha256').update(canonical(item)).digest('hex');
}

function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value).toString('base64'));
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${canonical(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
