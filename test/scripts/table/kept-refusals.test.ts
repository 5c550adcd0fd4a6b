import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRefusalStore } from '../../../lambda/refusals/dynamodb-refusal-store.js';
import type { RefusalRecord } from '../../../lambda/refusals/refusal.js';
import { UsageError } from '../../../scripts/cli/cli-errors.js';
import {
  digestPrefix,
  findRefusal,
  firstReceivedTimes,
  listRefusalSummaries,
  listRefusals,
} from '../../../scripts/table/kept-refusals.js';
import { createTestRefusalsTable, engines, type TestTable } from '../../support/engines.js';

/** A refusal of `body`, first delivered at `at`. */
function refusal(body: string, at: string): RefusalRecord {
  const bytes = Buffer.from(body, 'utf8');
  return {
    digest: createHash('sha256').update(bytes).digest('hex'),
    body: bytes,
    bodyBytes: bytes.length,
    headers: { 'Content-Type': 'application/json' },
    headersDropped: 0,
    status: 422,
    problem: 'invalid-transaction',
    reference: 'ref-kept',
    receivedAt: new Date(at),
    keyId: 'key-1',
    requestId: 'req-1',
    sourceIp: '203.0.113.7',
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe.each(engines)('reading kept refusals back, on %s', (engine) => {
  let table: TestTable;
  /** Seven refusals a day apart, oldest first; two more at the very same time as the fifth. */
  const seven = Array.from({ length: 7 }, (_, day) =>
    refusal(`{"day":${day}}`, `2026-11-0${day + 1}T10:00:00.000Z`),
  );
  const sameTime = ['{"twin":1}', '{"twin":2}'].map((body) =>
    refusal(body, '2026-11-05T10:00:00.000Z'),
  );
  beforeAll(async () => {
    table = await createTestRefusalsTable(engine);
    const store = new DynamoDbRefusalStore(table.client, table.tableName);
    for (const kept of [...seven, ...sameTime]) await store.keep(kept);
  });
  afterAll(() => table?.drop());

  it('reads a listing longer than one read-back batch whole, newest first, bodies and all', async () => {
    const all = await collect(listRefusals(table));

    expect(all).toHaveLength(9);
    expect(all.map((kept) => kept.firstReceivedAt.slice(0, 10))).toEqual([
      '2026-11-07',
      '2026-11-06',
      '2026-11-05',
      '2026-11-05',
      '2026-11-05',
      '2026-11-04',
      '2026-11-03',
      '2026-11-02',
      '2026-11-01',
    ]);
    expect(Buffer.from(all[0]?.body ?? []).toString()).toBe('{"day":6}');
    expect(Buffer.from(all[8]?.body ?? []).toString()).toBe('{"day":0}');
  });

  it('pages within a window by cursor: up to where the last page stopped, less what it showed at that time', async () => {
    const since = '2026-11-03T00:00:00.000Z';
    const firstPage = (await collect(listRefusalSummaries(table, { since }))).slice(0, 4);
    const last = firstPage.at(-1);
    expect(last?.lastReceivedAt).toBe('2026-11-05T10:00:00.000Z');
    const shownThen = firstPage
      .filter((entry) => entry.lastReceivedAt === last?.lastReceivedAt)
      .map((entry) => entry.digest.slice(0, 12));

    const next = await collect(
      listRefusalSummaries(table, {
        since,
        before: { at: last?.lastReceivedAt as string, seen: shownThen },
      }),
    );

    expect(next.map((entry) => entry.lastReceivedAt)).toEqual([
      '2026-11-05T10:00:00.000Z',
      '2026-11-04T10:00:00.000Z',
      '2026-11-03T10:00:00.000Z',
    ]);
    const shown = new Set([...firstPage, ...next].map((entry) => entry.digest));
    expect(shown.size).toBe(7);

    // Without a window: on down to the oldest.
    const rest = await collect(
      listRefusalSummaries(table, { before: { at: '2026-11-03T10:00:00.000Z', seen: [] } }),
    );
    expect(rest.map((entry) => entry.lastReceivedAt.slice(0, 10))).toEqual([
      '2026-11-03',
      '2026-11-02',
      '2026-11-01',
    ]);
  });

  it('a cursor older than the window lists nothing', async () => {
    const listed = await collect(
      listRefusalSummaries(table, {
        since: '2026-11-06T00:00:00.000Z',
        before: { at: '2026-11-02T10:00:00.000Z', seen: [] },
      }),
    );

    expect(listed).toEqual([]);
  });

  it('finds a refusal by its whole digest, in any case, and nothing for a digest never kept', async () => {
    const [first] = seven as [RefusalRecord];

    const found = await findRefusal(table, first.digest.toUpperCase());

    expect(Buffer.from(found?.body ?? []).toString()).toBe('{"day":0}');
    expect(await findRefusal(table, 'f'.repeat(64))).toBeUndefined();
    expect(await findRefusal(table, 'f0f0f0f0f0')).toBeUndefined();
  });

  it('tells when each was first delivered, leaving out a digest that is not kept', async () => {
    const [first, second] = seven as [RefusalRecord, RefusalRecord];

    const times = await firstReceivedTimes(table, [first.digest, second.digest, 'e'.repeat(64)]);

    expect(Object.fromEntries(times)).toEqual({
      [first.digest]: '2026-11-01T10:00:00.000Z',
      [second.digest]: '2026-11-02T10:00:00.000Z',
    });
  });
});

describe('naming a kept refusal', () => {
  it('takes 8 to 64 hex digits of a digest, in lower case', () => {
    expect(digestPrefix('--refusal', 'ABCDEF12')).toBe('abcdef12');
    for (const wrong of ['abcdef1', 'xyzxyzxyz', 'a'.repeat(65)]) {
      expect(() => digestPrefix('--refusal', wrong)).toThrow(UsageError);
    }
    expect(() => digestPrefix('<refusal>', 'abc')).toThrow(
      '<refusal> must be 8 to 64 hex digits of a digest',
    );
  });
});
