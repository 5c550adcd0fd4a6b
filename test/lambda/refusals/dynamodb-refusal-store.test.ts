import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../lambda/callback/errors.js';
import { DynamoDbRefusalStore } from '../../../lambda/refusals/dynamodb-refusal-store.js';
import { minuteCounterKey } from '../../../lambda/refusals/minute-bound.js';
import type { RefusalRecord } from '../../../lambda/refusals/refusal.js';
import {
  findRefusal,
  listRefusalSummaries,
  listRefusals,
} from '../../../scripts/table/kept-refusals.js';
import { createTestRefusalsTable, engines, type TestTable } from '../../support/engines.js';
import { recordRequests } from '../../support/request-counter.js';
import { storedItem } from '../../support/stored-items.js';

function refusal(body: string, overrides: Partial<RefusalRecord> = {}): RefusalRecord {
  const bytes = Buffer.from(body, 'utf8');
  return {
    digest: createHash('sha256').update(bytes).digest('hex'),
    body: bytes,
    bodyBytes: bytes.length,
    headers: { 'Content-Type': 'application/json' },
    headersDropped: 0,
    status: 422,
    problem: 'invalid-transaction',
    fieldErrors: [{ field: 'amount', message: 'must be a non-negative decimal' }],
    reference: 'ref-1',
    id: '91',
    receivedAt: new Date('2026-11-23T10:00:00.000Z'),
    keyId: 'key-1',
    requestId: 'req-1',
    sourceIp: '203.0.113.7',
    ...overrides,
  };
}

/** Epoch seconds `days` after `iso`, as DynamoDB's TTL reads them. */
const retainedUntil = (iso: string, days = 90) => Date.parse(iso) / 1000 + days * 86_400;

/** What keeping `refusal()` once writes besides the body, as plain values (numbers as numbers). */
const keptOnce = {
  status: 422,
  problem: 'invalid-transaction',
  reference: 'ref-1',
  id: '91',
  deliveries: 1,
  bodyKept: 'whole',
  firstReceivedAt: '2026-11-23T10:00:00.000Z',
  keyId: 'key-1',
  requestId: 'req-1',
  sourceIp: '203.0.113.7',
  expiresAt: retainedUntil('2026-11-23T10:00:00Z'),
};

describe.each(engines)('kept refusals on %s', (engine) => {
  let table: TestTable;
  let store: DynamoDbRefusalStore;

  beforeAll(async () => {
    table = await createTestRefusalsTable(engine);
    store = new DynamoDbRefusalStore(table.client, table.tableName, { retentionDays: 90 });
  });
  afterAll(() => table.drop());

  /** The item under `digest`, its attribute values read as plain values. */
  const item = async (digest: string) => {
    const stored = await storedItem(table, { digest });
    return stored && unmarshall(stored);
  };

  it('keeps the body byte for byte with the refusal, who sent it and when it expires', async () => {
    const kept = refusal('{"id":91,"amount":-1}');
    await store.keep(kept);
    const stored = await item(kept.digest);
    expect(Buffer.from(stored?.rawBody ?? []).toString('utf8')).toBe('{"id":91,"amount":-1}');
    expect(stored).toMatchObject(keptOnce);
  });

  it('keeps the same body once, counting deliveries and extending its retention, in one request per repeat', async () => {
    const first = refusal('{"same":"body"}');
    const again = { ...first, receivedAt: new Date('2026-11-24T10:00:00.000Z'), requestId: 'r2' };
    const counter = recordRequests(table.client);
    const outcomes = [await store.keep(first), await store.keep(again), await store.keep(again)];
    counter.stop();
    expect(outcomes).toEqual(['kept', 'counted', 'counted']);
    // New: the repeat's condition fails, a slot of the minute is taken, the body is kept.
    expect(counter.requests()).toEqual(Array(5).fill('UpdateItem'));
    // The first delivery's details stay; the count, the last time and the retention move on.
    expect(await item(first.digest)).toMatchObject({
      ...keptOnce,
      deliveries: 3,
      lastReceivedAt: '2026-11-24T10:00:00.000Z',
      expiresAt: retainedUntil('2026-11-24T10:00:00Z'),
    });
  });

  it('grows by one item per distinct body, never per delivery, under a flood', async () => {
    const flood = Array.from({ length: 60 }, (_, i) => refusal(`{"flood":${i % 6}}`));
    for (const kept of flood) await store.keep(kept);
    const scan = await table.client.send(
      new ScanCommand({
        TableName: table.tableName,
        FilterExpression: 'begins_with(#r, :flood)',
        ExpressionAttributeNames: { '#r': 'rawBody' },
        ExpressionAttributeValues: { ':flood': { B: Buffer.from('{"flood":') } },
      }),
    );
    expect(scan.Items?.length).toBe(6);
    expect(scan.Items?.map((stored) => stored.deliveries?.N)).toEqual(Array(6).fill('10'));
  });

  it('lists refusals newest first, by time and by reference, and finds one by a digest prefix', async () => {
    const older = refusal('{"list":1}', {
      reference: 'ref-list',
      receivedAt: new Date('2026-10-01T00:00:00Z'),
    });
    const newer = refusal('{"list":2}', {
      reference: 'ref-list',
      receivedAt: new Date('2026-12-01T00:00:00Z'),
    });
    await store.keep(older);
    await store.keep(newer);
    const byReference = await collect(listRefusals(table, { reference: 'ref-list' }));
    expect(byReference.map((kept) => kept.digest)).toEqual([newer.digest, older.digest]);
    const recent = await collect(listRefusals(table, { since: '2026-11-30T00:00:00.000Z' }));
    expect(recent.map((kept) => kept.digest)).toEqual([newer.digest]);
    const found = await findRefusal(table, newer.digest.slice(0, 16));
    expect(Buffer.from(found?.body ?? []).toString()).toBe('{"list":2}');
    expect(found?.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('keeps at most the bound of new bodies a minute, counts repeats past it, and keeps again the next minute', async () => {
    const bounded = new DynamoDbRefusalStore(table.client, table.tableName, { keptPerMinute: 3 });
    const at = new Date('2026-06-01T08:00:10.000Z');
    const bodies = Array.from({ length: 5 }, (_, i) =>
      refusal(`{"bound":${i}}`, { receivedAt: at }),
    );

    const outcomes = [];
    for (const body of bodies) outcomes.push(await bounded.keep(body));
    const repeat = await bounded.keep({
      ...bodies[0],
      receivedAt: new Date('2026-06-01T08:00:50Z'),
    } as RefusalRecord);
    const nextMinute = await bounded.keep({
      ...bodies[4],
      receivedAt: new Date('2026-06-01T08:01:00Z'),
    } as RefusalRecord);

    expect(outcomes).toEqual(['kept', 'kept', 'kept', 'not-kept', 'not-kept']);
    expect(repeat).toBe('counted');
    expect(nextMinute).toBe('kept');
    expect(await item(bodies[3]?.digest ?? '')).toBeUndefined();
    expect((await item(bodies[0]?.digest ?? ''))?.deliveries).toBe(2);
    expect((await item(minuteCounterKey(at)))?.kept).toBe(3);
  });

  it('holds the bound across instances keeping at once: each new body takes a slot atomically', async () => {
    const limit = 4;
    const instances = [0, 1, 2].map(
      () => new DynamoDbRefusalStore(table.client, table.tableName, { keptPerMinute: limit }),
    );
    const at = new Date('2026-06-02T09:30:00.000Z');
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        instances[i % 3]?.keep(refusal(`{"race":${i}}`, { receivedAt: at })),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'kept')).toHaveLength(limit);
    expect(outcomes.filter((outcome) => outcome === 'not-kept')).toHaveLength(12 - limit);
  });

  it('answers a failed minute counter as unavailable (a 503), never as over the bound', async () => {
    // A fault the engines cannot produce on demand: the counter's write denied, the rest not.
    const name = 'fail-counter';
    table.client.middlewareStack.add(
      (next) => async (args) => {
        const input = (args as { input: { Key?: Record<string, { S?: string }> } }).input;
        if (input.Key?.digest?.S?.startsWith('kept-per-minute#')) {
          throw Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const outcome = await store.keep(refusal('{"counter":"down"}')).catch((error) => error);
      expect(outcome).toBeInstanceOf(StoreUnavailableError);
    } finally {
      table.client.middlewareStack.remove(name);
    }
    expect(await item(refusal('{"counter":"down"}').digest)).toBeUndefined();
  });

  it('lists from the index only, never the minute counters, and reads no table scan', async () => {
    const at = new Date('2026-06-03T07:00:00.000Z');
    await store.keep(refusal('{"index":1}', { receivedAt: at, reference: 'ref-index' }));
    const counter = recordRequests(table.client);
    const all = await collect(listRefusalSummaries(table));
    const json = await collect(listRefusals(table, { reference: 'ref-index' }));
    counter.stop();

    expect(all.some((kept) => kept.digest.startsWith('kept-per-minute#'))).toBe(false);
    expect(all.length).toBeGreaterThan(5);
    expect(json.map((kept) => kept.reference)).toEqual(['ref-index']);
    expect(new Set(counter.requests())).toEqual(new Set(['Query', 'BatchGetItem']));
    // Newest first across the sixteen partitions.
    const times = all.map((kept) => kept.lastReceivedAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('asks each partition for the page size it is given, so a small page reads little', async () => {
    const limits: (number | undefined)[] = [];
    const name = `limits-${engine}`;
    table.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'QueryCommand') {
          limits.push((args.input as { Limit?: number }).Limit);
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const first = listRefusalSummaries(table, { pageSize: 6 });
      await first.next();
      await first.return(undefined);
      const byDefault = listRefusalSummaries(table);
      await byDefault.next();
      await byDefault.return(undefined);
    } finally {
      table.client.middlewareStack.remove(name);
    }

    expect(limits).toEqual([...Array(16).fill(6), ...Array(16).fill(250)]);
  });

  it('finds a refusal by a prefix in its one index partition, and refuses an ambiguous prefix', async () => {
    const twin = (tail: string) =>
      refusal(`{"twin":"${tail}"}`, { digest: `f00dfeed${tail.repeat(56)}` });
    await store.keep(twin('1'));
    const counter = recordRequests(table.client);
    const found = await findRefusal(table, 'f00dfeed1');
    counter.stop();
    expect(found?.digest).toBe(`f00dfeed${'1'.repeat(56)}`);
    expect(counter.requests()).toEqual(['Query', 'GetItem']);

    await store.keep(twin('2'));
    await expect(findRefusal(table, 'f00dfeed')).rejects.toThrow(/more than one kept refusal/);
    expect(await findRefusal(table, 'f00dfeed3')).toBeUndefined();
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
