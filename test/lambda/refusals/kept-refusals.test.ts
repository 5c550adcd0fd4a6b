import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HashMode } from '../../../lambda/config/config.js';
import { maxBodyBytes } from '../../../lambda/http/read-body.js';
import { DynamoDbRefusalStore } from '../../../lambda/refusals/dynamodb-refusal-store.js';
import {
  keptPartBytes,
  maxKeptHeaderBytes,
  maxKeptHeaders,
} from '../../../lambda/refusals/refusal-limits.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import {
  createTestRefusalsTable,
  createTestTable,
  engines,
  type TestTable,
} from '../../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../../support/fixtures.js';
import { receiverWith } from '../../support/receiver.js';
import { recordRequests } from '../../support/request-counter.js';
import { storedItem } from '../../support/stored-items.js';

const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(engines)('refusals kept on %s', (engine) => {
  let transactions: TestTable;
  let refusals: TestTable;

  beforeAll(async () => {
    [transactions, refusals] = await Promise.all([
      createTestTable(engine),
      createTestRefusalsTable(engine),
    ]);
  });
  afterAll(async () => {
    await Promise.all([transactions.drop(), refusals.drop()]);
  });

  const receiver = (hashMode: HashMode = 'if-present', refusalsTable = refusals.tableName) =>
    receiverWith(new DynamoDbTransactionStore(transactions.client, transactions.tableName), {
      hashMode,
      refusals: new DynamoDbRefusalStore(refusals.client, refusalsTable),
    });
  const kept = (digest: string) => storedItem(refusals, { digest });
  const sentBytes = (event: APIGatewayProxyEvent) =>
    Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');

  const unsignedInvalid = () => signed(transaction({ amount: -5 }));
  const kinds: [string, () => APIGatewayProxyEvent, HashMode, number, string][] = [
    ['a body that is not JSON', () => callbackEvent('{"id":'), 'if-present', 400, 'malformed-json'],
    [
      'a body that is not UTF-8',
      () => ({
        ...callbackEvent(Buffer.from([0x7b, 0xff, 0x7d]).toString('base64')),
        isBase64Encoded: true,
      }),
      'if-present',
      400,
      'malformed-json',
    ],
    [
      'a body without the required hash',
      () => callbackEvent(JSON.stringify(transaction())),
      'required',
      403,
      'hash-missing',
    ],
    [
      'a body whose hash does not verify',
      () => callbackEvent(signed(transaction(), 'another-key')),
      'if-present',
      403,
      'hash-mismatch',
    ],
    [
      'a body sent as text/plain',
      () => callbackEvent(signed(transaction()), { headers: { 'Content-Type': 'text/plain' } }),
      'if-present',
      415,
      'unsupported-media-type',
    ],
    [
      'a transaction that fails validation',
      () => callbackEvent(unsignedInvalid()),
      'if-present',
      422,
      'invalid-transaction',
    ],
  ];

  it.each(kinds)(
    'keeps %s before answering, with the body as received and no key',
    async (_name, build, hashMode, status, problem) => {
      const event = build();
      const response = await receiver(hashMode)(event);
      expect(response.statusCode).toBe(status);
      const bytes = sentBytes(event);
      const item = await kept(digestOf(bytes));
      expect(Buffer.from(item?.rawBody?.B ?? []).equals(bytes)).toBe(true);
      expect(item).toMatchObject({
        status: { N: String(status) },
        problem: { S: problem },
        bodyKept: { S: 'whole' },
        deliveries: { N: '1' },
        requestId: { S: event.requestContext.requestId },
        sourceIp: { S: '203.0.113.7' },
      });
      expect(item?.headers?.S).not.toContain(specKey);
      expect(JSON.parse(item?.headers?.S ?? '{}')).not.toHaveProperty('x-api-key');
    },
  );

  it('keeps the field errors and the reference of a 422, so "what happened to it?" has an answer', async () => {
    const fields = transaction({ amount: -5, id: 91 });
    const body = signed(fields);
    await receiver()(callbackEvent(body));
    const item = await kept(digestOf(Buffer.from(body)));
    expect(item?.reference?.S).toBe(fields.reference);
    expect(item?.id?.S).toBe('91');
    expect(JSON.parse(item?.fieldErrors?.S ?? '[]')).toEqual([
      { field: 'amount', message: 'must be a non-negative decimal of at most 38 digits' },
    ]);
  });

  it('keeps the first part of a body over the size limit, with its size and digest', async () => {
    const body = `{"padding":"${'x'.repeat(maxBodyBytes)}"}`;
    const response = await receiver()(callbackEvent(body));
    expect(response.statusCode).toBe(413);
    const item = await kept(digestOf(Buffer.from(body)));
    expect(item).toMatchObject({
      bodyKept: { S: 'part' },
      bodyBytes: { N: String(Buffer.byteLength(body)) },
    });
    expect(Buffer.from(item?.rawBody?.B ?? []).toString()).toBe(body.slice(0, keptPartBytes));
  });

  it('keeps a body refused again and again once, counting its deliveries', async () => {
    const body = signed(transaction({ currency: 'usd' }));
    const invoke = receiver();
    for (let i = 0; i < 5; i++) expect((await invoke(callbackEvent(body))).statusCode).toBe(422);
    expect((await kept(digestOf(Buffer.from(body))))?.deliveries?.N).toBe('5');
  });

  it('stores nothing and calls DynamoDB not at all for a request without a valid key', async () => {
    const counters = [recordRequests(transactions.client), recordRequests(refusals.client)];
    const body = unsignedInvalid();
    const responses = await Promise.all([
      receiver()(callbackEvent(body, { headers: { 'x-api-key': 'wrong-key' } })),
      receiver()(callbackEvent('not json', { headers: { 'x-api-key': 'wrong-key' } })),
    ]);
    for (const counter of counters) counter.stop();
    expect(responses.map((response) => response.statusCode)).toEqual([401, 401]);
    expect(counters.flatMap((counter) => counter.requests())).toEqual([]);
    expect(await kept(digestOf(Buffer.from(body)))).toBeUndefined();
  });

  it('answers 503 with Retry-After, not the 4xx, when the refusal cannot be kept', async () => {
    const response = await receiver(
      'if-present',
      'no-such-refusals-table',
    )(callbackEvent(unsignedInvalid()));
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['retry-after']).toBeDefined();
  });

  it('keeps neither a recorded transaction, a duplicate nor a conflict as a refusal, and no refusal in the transactions table', async () => {
    const fields = transaction();
    const invoke = receiver();
    const bodies = [signed(fields), signed(fields), signed({ ...fields, amount: 1 })];
    const statuses = [];
    for (const body of bodies) statuses.push((await invoke(callbackEvent(body))).statusCode);
    expect(statuses).toEqual([204, 204, 409]);
    for (const body of bodies) expect(await kept(digestOf(Buffer.from(body)))).toBeUndefined();

    const items = await transactions.client.send(
      new ScanCommand({ TableName: transactions.tableName, ConsistentRead: true }),
    );
    expect(items.Items?.map((item) => item.record?.S).sort()).toEqual(['conflict', 'transaction']);
  });

  it('keeps at most the capped headers, Content-Type first, and says how many were left out', async () => {
    const extra = Object.fromEntries(
      Array.from({ length: 80 }, (_, i) => [`x-extra-${i}`, 'v'.repeat(300)]),
    );
    // Content-Type last, as a sender may order it: kept anyway, resubmit needs it.
    const event = callbackEvent(unsignedInvalid(), {
      headers: { 'Content-Type': undefined as unknown as string, ...extra },
    });
    event.headers['Content-Type'] = 'application/json';

    expect((await receiver()(event)).statusCode).toBe(422);

    const item = await kept(digestOf(sentBytes(event)));
    const headers = JSON.parse(item?.headers?.S ?? '{}') as Record<string, string>;
    const names = Object.keys(headers);
    expect(names.length).toBeLessThanOrEqual(maxKeptHeaders);
    expect(Buffer.byteLength(names.join('') + Object.values(headers).join(''))).toBeLessThanOrEqual(
      maxKeptHeaderBytes,
    );
    expect(headers['Content-Type']).toBe('application/json');
    expect(item?.headersKept?.S).toBe('part');
    expect(Number(item?.headersDropped?.N)).toBe(81 - names.length);
  });

  it('answers the refusal as usual past the minute bound, keeping nothing more, and never touches a valid callback', async () => {
    const bounded = new DynamoDbRefusalStore(refusals.client, refusals.tableName, {
      keptPerMinute: 2,
    });
    const invoke = receiverWith(
      new DynamoDbTransactionStore(transactions.client, transactions.tableName),
      { refusals: bounded },
    );
    // A minute of its own, so other tests' refusals take none of its slots.
    vi.useFakeTimers({ now: new Date('2031-01-01T00:00:05Z'), toFake: ['Date'] });
    try {
      const events = [1, 2, 3, 4].map((i) => callbackEvent(signed(transaction({ amount: -i }))));
      const answers = [];
      for (const event of events) answers.push((await invoke(event)).statusCode);
      expect(answers).toEqual([422, 422, 422, 422]);
      const keptNow = await Promise.all(events.map((event) => kept(digestOf(sentBytes(event)))));
      expect(keptNow.map((item) => item !== undefined)).toEqual([true, true, false, false]);

      const counter = recordRequests(refusals.client);
      const valid = await invoke(callbackEvent(signed(transaction())));
      counter.stop();
      expect(valid.statusCode).toBe(204);
      expect(counter.requests()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
