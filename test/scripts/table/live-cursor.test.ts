import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { LiveCursor } from '../../../scripts/table/live-cursor.js';
import { createTestTable, forEachEngine, type TestTable } from '../../support/engines.js';
import { transaction } from '../../support/fixtures.js';
import { recordOf } from '../../support/stream-records.js';

/** The time index as a follower reads it, on both engines (dynalite has no stream to follow). */
forEachEngine((engine) => {
  let table: TestTable;
  let store: DynamoDbTransactionStore;
  const context = () => ({ client: table.client, tableName: table.tableName });
  // Times relative to the test's start, so the order of the writes is not the order of the times.
  let base = Date.now();
  const at = (offsetMs: number) => new Date(base + offsetMs).toISOString();
  const put = (reference: string, receivedAt: string) =>
    store.putIfAbsent(recordOf(transaction({ reference }), { receivedAt }));
  const conflict = (reference: string, receivedAt: string) =>
    store.keepConflict(recordOf(transaction({ reference, amount: 999 }), { receivedAt }));
  const keys = (entries: readonly { key: string }[]) => entries.map((entry) => entry.key);

  beforeAll(async () => {
    table = await createTestTable(engine);
    store = new DynamoDbTransactionStore(table.client, table.tableName);
  });
  beforeEach(() => {
    base = Date.now();
  });
  afterAll(() => table.drop());

  describe('a live cursor', () => {
    it('starts at now: what the table held, the last seconds included, is not news', async () => {
      await put('old-1', at(-60_000));
      await put('old-2', at(-2_000));

      const cursor = await LiveCursor.startingNow(context());

      expect(await cursor.next()).toEqual([]);
    });

    it('returns each new transaction once, oldest first, however often it reads', async () => {
      const cursor = await LiveCursor.startingNow(context());
      await put('new-b', at(2));
      await put('new-a', at(1));

      const first = await cursor.next();
      await put('new-c', at(3));
      const second = await cursor.next();
      const third = await cursor.next();

      expect(keys(first)).toEqual(['new-a', 'new-b']);
      expect(keys(second)).toEqual(['new-c']);
      expect(third).toEqual([]);
    });

    it('still finds a row stamped before the latest one read but visible only later', async () => {
      const cursor = await LiveCursor.startingNow(context(), { overlapMs: 10_000 });
      await put('on-time', at(1_000));
      expect(keys(await cursor.next())).toEqual(['on-time']);

      await put('late', at(-3_000)); // a slow request: stamped on arrival, written afterwards

      expect(keys(await cursor.next())).toEqual(['late']);
    });

    it('resumes from a saved position with nothing missed and nothing twice', async () => {
      const before = await LiveCursor.startingNow(context());
      await put('saved-1', at(1));
      expect(keys(await before.next())).toEqual(['saved-1']);
      const saved = JSON.parse(JSON.stringify(before.position));

      await put('while-stopped', at(2));
      const after = LiveCursor.resume(context(), saved);

      expect(keys(await after.next())).toEqual(['while-stopped']);
      expect(await after.next()).toEqual([]);
    });

    it('gives two transactions of the same millisecond in the order of their references', async () => {
      const cursor = await LiveCursor.startingNow(context());
      await put('same-ms-b', at(5));
      await put('same-ms-a', at(5));

      expect(keys(await cursor.next())).toEqual(['same-ms-a', 'same-ms-b']);
    });

    it('remembers only the overlap: what it read long before is forgotten from the saved position', async () => {
      const cursor = await LiveCursor.startingNow(context(), { overlapMs: 1_000 });
      await put('early', at(1));
      expect(keys(await cursor.next())).toEqual(['early']);
      await put('much-later', at(5_000));

      expect(keys(await cursor.next())).toEqual(['much-later']);
      expect(await cursor.next()).toEqual([]);
      expect(cursor.position.recent.map(([key]) => key)).toEqual(['much-later']);
    });

    it('follows conflicting deliveries too when asked, by their audit key', async () => {
      const cursor = await LiveCursor.startingNow(context(), { conflicts: true });
      await put('disputed', at(1));
      await conflict('disputed', at(2));

      const entries = await cursor.next();

      expect(entries.map(({ kind }) => kind)).toEqual(['transaction', 'conflict']);
      expect(entries[1]?.key).toMatch(/^disputed.+conflict/);
    });
  });
});
