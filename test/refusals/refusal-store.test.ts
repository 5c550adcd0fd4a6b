import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRefusalStore } from '../../lambda/refusals/dynamodb-refusal-store.js';
import type { RefusalRecord } from '../../lambda/refusals/refusal.js';
import { findRefusal, listRefusals } from '../../scripts/query/kept-refusals.js';
import { createTestRefusalsTable, engines, type TestTable } from '../support/engines.js';
import { recordRequests } from '../support/request-counter.js';
import { storedItem } from '../support/stored-items.js';

function refusal(body: string, overrides: Partial<RefusalRecord> = {}): RefusalRecord {
  const bytes = Buffer.from(body, 'utf8');
  return {
    digest: createHash('sha256').update(bytes).digest('hex'),
    body: bytes,
    bodyBytes: bytes.length,
    headers: { 'Content-Type': 'application/json' },
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

describe.each(engines)('kept refusals on %s', (engine) => {
  let table: TestTable;
  let store: DynamoDbRefusalStore;

  beforeAll(async () => {
    table = await createTestRefusalsTable(engine);
    store = new DynamoDbRefusalStore(table.client, table.tableName, { retentionDays: 90 });
  });
  afterAll(() => table.drop());

  const item = (digest: string) => storedItem(table, { digest });

  it('keeps the body byte for byte with the refusal, who sent it and when it expires', async () => {
    const kept = refusal('{"id":91,"amount":-1}');
    await store.keep(kept);
    const stored = await item(kept.digest);
    expect(Buffer.from(stored?.rawBody?.B ?? []).toString('utf8')).toBe('{"id":91,"amount":-1}');
    expect(stored).toMatchObject({
      status: { N: '422' },
      problem: { S: 'invalid-transaction' },
      reference: { S: 'ref-1' },
      id: { S: '91' },
      deliveries: { N: '1' },
      bodyKept: { S: 'whole' },
      firstReceivedAt: { S: '2026-11-23T10:00:00.000Z' },
      keyId: { S: 'key-1' },
      requestId: { S: 'req-1' },
      sourceIp: { S: '203.0.113.7' },
      // 90 days after the delivery, in epoch seconds, for DynamoDB's TTL.
      expiresAt: { N: String(Date.parse('2026-11-23T10:00:00Z') / 1000 + 90 * 86_400) },
    });
  });

  it('keeps the same body once, counting deliveries and extending its retention, in one request each', async () => {
    const first = refusal('{"same":"body"}');
    const again = { ...first, receivedAt: new Date('2026-11-24T10:00:00.000Z'), requestId: 'r2' };
    const counter = recordRequests(table.client);
    await store.keep(first);
    await store.keep(again);
    await store.keep(again);
    counter.stop();
    expect(counter.requests()).toEqual(['UpdateItem', 'UpdateItem', 'UpdateItem']);
    expect(await item(first.digest)).toMatchObject({
      deliveries: { N: '3' },
      requestId: { S: 'req-1' },
      firstReceivedAt: { S: '2026-11-23T10:00:00.000Z' },
      lastReceivedAt: { S: '2026-11-24T10:00:00.000Z' },
      expiresAt: { N: String(Date.parse('2026-11-24T10:00:00Z') / 1000 + 90 * 86_400) },
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
    const byReference = await listRefusals(table, {
      reference: 'ref-list',
    });
    expect(byReference.map((kept) => kept.digest)).toEqual([newer.digest, older.digest]);
    const recent = await listRefusals(table, {
      since: '2026-11-30T00:00:00.000Z',
    });
    expect(recent.map((kept) => kept.digest)).toEqual([newer.digest]);
    const found = await findRefusal(table, newer.digest.slice(0, 16));
    expect(Buffer.from(found?.body ?? []).toString()).toBe('{"list":2}');
    expect(found?.headers).toEqual({ 'Content-Type': 'application/json' });
  });
});
