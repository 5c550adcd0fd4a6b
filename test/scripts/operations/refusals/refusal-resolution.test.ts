import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRefusalStore } from '../../../../lambda/refusals/dynamodb-refusal-store.js';
import { minuteCounterKey } from '../../../../lambda/refusals/minute-bound.js';
import type { RefusalRecord } from '../../../../lambda/refusals/refusal.js';
import {
  isResolved,
  maxResolutionReasonLength,
  type RefusalResolution,
  ResolveRefusedError,
  resolutionOf,
  resolutionsOf,
  resolveRefusal,
} from '../../../../scripts/operations/refusals/refusal-resolution.js';
import { createTestRefusalsTable, engines, type TestTable } from '../../../support/engines.js';

function refusal(body: string): RefusalRecord {
  const bytes = Buffer.from(body, 'utf8');
  return {
    digest: createHash('sha256').update(bytes).digest('hex'),
    body: bytes,
    bodyBytes: bytes.length,
    headers: {},
    headersDropped: 0,
    status: 422,
    problem: 'invalid-transaction',
    receivedAt: new Date('2026-11-20T10:00:00.000Z'),
    keyId: 'key-1',
    requestId: 'req-1',
    sourceIp: '203.0.113.7',
  };
}

const marked: RefusalResolution = {
  by: 'local:ops-a',
  at: '2026-11-20T11:00:00.000Z',
  why: '  OPS-4: the gateway fixed its currency field  ',
  how: 'marked',
};

describe.each(engines)('dealing with a kept refusal, on %s', (engine) => {
  let table: TestTable;
  let store: DynamoDbRefusalStore;
  beforeAll(async () => {
    table = await createTestRefusalsTable(engine);
    store = new DynamoDbRefusalStore(table.client, table.tableName);
  });
  afterAll(() => table?.drop());

  it('records who dealt with it, when, why (trimmed) and how; it counts as dealt with until it comes again', async () => {
    const kept = refusal('{"resolve":1}');
    await store.keep(kept);

    await resolveRefusal(table, kept.digest, marked);

    const found = await resolutionsOf(table, [kept.digest, 'f'.repeat(64)]);
    const resolution = found.get(kept.digest);
    expect(resolution).toEqual({ ...marked, why: 'OPS-4: the gateway fixed its currency field' });
    expect([...found.keys()]).toEqual([kept.digest]);
    expect(isResolved(resolution, '2026-11-20T10:00:00.000Z')).toBe(true);
    expect(isResolved(resolution, '2026-11-20T12:00:00.000Z')).toBe(false);
    expect(isResolved(undefined, '2026-11-20T10:00:00.000Z')).toBe(false);
  });

  it('refuses a blank reason and one too long to keep, writing nothing', async () => {
    const kept = refusal('{"resolve":2}');
    await store.keep(kept);

    for (const why of [' ', 'x'.repeat(maxResolutionReasonLength + 1)]) {
      await expect(resolveRefusal(table, kept.digest, { ...marked, why })).rejects.toThrow(
        'a reason is required, up to 1000 characters',
      );
    }
    expect((await resolutionsOf(table, [kept.digest])).size).toBe(0);
  });

  it('refuses a refusal that is not kept (expired, or a per-minute counter), saying it may have expired', async () => {
    const counter = minuteCounterKey(new Date('2026-11-20T10:00:00.000Z'));
    await store.keep(refusal('{"resolve":3}'));

    for (const digest of ['0'.repeat(64), counter]) {
      const refused = resolveRefusal(table, digest, marked);
      await expect(refused).rejects.toBeInstanceOf(ResolveRefusedError);
      await expect(refused).rejects.toThrow(`no kept refusal ${digest}: it may have expired`);
    }
  });

  it('any other failure comes out as itself', async () => {
    await expect(
      resolveRefusal({ client: table.client, tableName: 'no-such-table' }, '0'.repeat(64), marked),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});

describe('a resolution as kept on the item', () => {
  it('reads one written without its parts as marked by nobody named, and none where none is kept', () => {
    expect(resolutionOf({ resolution: { M: {} } })).toEqual({
      by: '',
      at: '',
      why: '',
      how: 'marked',
    });
    expect(resolutionOf({ resolution: { M: { how: { S: 'resubmitted' } } } })?.how).toBe(
      'resubmitted',
    );
    expect(resolutionOf({})).toBeUndefined();
    expect(resolutionOf(undefined)).toBeUndefined();
  });
});
