import { createHash, randomUUID } from 'node:crypto';
import { type AttributeValue, type DynamoDBClient, paginateScan } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord, AttributeValue as LambdaAttribute } from 'aws-lambda';
import { attributes } from '../../../lambda/storage/table-definition.js';
import { lambdaJson } from '../../replay/republish.js';
import type { Outbox, OutboxEntry } from './outbox.js';

type Item = Record<string, AttributeValue>;

export interface TableStreamOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly outbox: Outbox;
  /** Pause between two reads of the table; longer when a read takes long. @default 250 */
  readonly pollMs?: number;
  /** Told after changes were appended. */
  readonly onAppended: () => void;
  readonly onError: (error: unknown) => void;
}

/**
 * What DynamoDB Streams does for the deployed table, done by reading the table: neither local
 * engine offers a stream to every writer (dynalite has none), while the server, `npm run settle`
 * and the other tools all write through the engine. Each read is compared with the outbox's view
 * of the table; an item not seen before is an INSERT, a changed one a MODIFY, a vanished one a
 * REMOVE, each with the new image only (the stack's stream is NEW_IMAGE). Two changes of one item
 * between two reads are seen as one, with the item as it ended.
 */
export function startTableStream(options: TableStreamOptions) {
  const { outbox, onAppended, onError } = options;
  const pollMs = options.pollMs ?? 250;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const poll = async () => {
    const started = Date.now();
    try {
      const items = await readTable(options.client, options.tableName);
      if (!outbox.started) {
        await outbox.start(new Map([...items].map(([key, item]) => [key, item.digest])));
      } else {
        const changes = diff(outbox, items);
        await outbox.append(changes);
        if (changes.length > 0) onAppended();
      }
    } catch (error) {
      onError(error);
    }
    // A big table is read less often: reading takes at most a fifth of the time (5,000 items
    // take dynalite about 300 ms, so a change is seen within about 1.5 s).
    return Math.max(pollMs, 4 * (Date.now() - started));
  };
  const schedule = (waitMs: number) => {
    if (stopping) return;
    timer = setTimeout(() => {
      running = poll().then(schedule);
    }, waitMs);
  };

  const ready = poll().then(schedule);
  return {
    /** Resolves once the table was read for the first time. */
    ready,
    /** Reads the table once more (changes made just before the stop), then stops. */
    async stop(): Promise<void> {
      stopping = true;
      clearTimeout(timer);
      await ready;
      await running;
      await poll();
    },
  };
}

async function readTable(client: DynamoDBClient, tableName: string) {
  const items = new Map<string, { item: Item; digest: string }>();
  const pages = paginateScan({ client }, { TableName: tableName, ConsistentRead: true });
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const key = item[attributes.reference]?.S;
      if (key !== undefined) items.set(key, { item, digest: digest(item) });
    }
  }
  return items;
}

/** The changes since the outbox last saw the table, oldest `receivedAt` first. */
function diff(
  outbox: Outbox,
  items: ReadonlyMap<string, { item: Item; digest: string }>,
): OutboxEntry[] {
  const changed: { key: string; item: Item; digest: string; name: 'INSERT' | 'MODIFY' }[] = [];
  for (const [key, { item, digest }] of items) {
    const before = outbox.seen.get(key);
    if (before === digest) continue;
    changed.push({ key, item, digest, name: before === undefined ? 'INSERT' : 'MODIFY' });
  }
  changed.sort(
    (a, b) => receivedAt(a.item).localeCompare(receivedAt(b.item)) || a.key.localeCompare(b.key),
  );
  const now = Date.now();
  const entries: OutboxEntry[] = changed.map(({ key, item, digest, name }, index) => ({
    key,
    digest,
    record: streamRecord(name, key, item, now, index),
  }));
  for (const key of outbox.seen.keys()) {
    if (!items.has(key)) {
      entries.push({ key, digest: null, record: streamRecord('REMOVE', key, undefined, now, 0) });
    }
  }
  return entries;
}

function receivedAt(item: Item): string {
  return item[attributes.receivedAt]?.S ?? '';
}

/** The record as Lambda receives it from the table's stream. */
function streamRecord(
  name: 'INSERT' | 'MODIFY' | 'REMOVE',
  key: string,
  item: Item | undefined,
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
      ...(item && { NewImage: lambdaJson<Record<string, LambdaAttribute>>(item) }),
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
