import { type DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { acceptedKey } from '../../lambda/auth/accepted-keys.js';
import { stringifyJson } from '../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { indexNames } from '../../lambda/storage/table-definition.js';
import { createTestTable, engines } from '../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../support/fixtures.js';
import { receiverWith } from '../support/receiver.js';
import { recordRequests } from '../support/request-counter.js';
import { storedItem } from '../support/stored-items.js';

describe.each(engines)('the receiver on %s', (engine) => {
  let client: DynamoDBClient;
  let tableName: string;
  let invoke: ReturnType<typeof receiverWith>;

  beforeAll(async () => {
    ({ client, tableName } = await createTestTable(engine));
    invoke = receiverWith(new DynamoDbTransactionStore(client, tableName));
  });

  const stored = (reference: string) => storedItem({ client, tableName }, { reference });

  const conflictsOf = async (reference: string) =>
    (
      await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: indexNames.byConflictOf,
          KeyConditionExpression: 'conflictOf = :reference',
          ExpressionAttributeValues: { ':reference': { S: reference } },
        }),
      )
    ).Items ?? [];

  it('records a new callback with every field exact, the raw body and the delivery details', async () => {
    const fields = transaction({ id: 9007199254740993n, amount: 1050.75, channel: 'mobile' });
    const body = signed(fields);
    const response = await invoke(callbackEvent(body, { requestId: 'api-req-1' }));
    expect([response.statusCode, response.headers?.['x-callback-outcome']]).toEqual([
      204,
      'recorded',
    ]);
    expect(await stored(fields.reference as string)).toMatchObject({
      record: { S: 'transaction' },
      id: { N: '9007199254740993' },
      amount: { N: '1050.75' },
      firstName: { S: 'Çağrı' },
      lastName: { S: 'Öztürk' },
      currency: { S: 'TRY' },
      message: { S: '' },
      extra: { S: '{"channel":"mobile"}' },
      rawBody: { S: body },
      hashResult: { S: 'verified' },
      keyId: { S: acceptedKey(specKey).id },
      requestId: { S: 'api-req-1' },
      sourceIp: { S: '203.0.113.7' },
      fingerprint: { S: expect.stringMatching(/^[0-9a-f]{64}$/) },
      receivedAt: { S: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
  });

  it('keeps the request headers less credentials with the transaction and with a conflict', async () => {
    const fields = transaction();
    const headers = {
      'X-Gateway-Attempt': '2',
      'User-Agent': 'gateway/4.1',
      Authorization: 'Bearer secret-token',
      Cookie: 'session=secret',
      'Proxy-Authorization': 'Basic c2VjcmV0',
    };
    expect((await invoke(callbackEvent(signed(fields), { headers }))).statusCode).toBe(204);
    const kept = {
      'Content-Type': 'application/json',
      'X-Gateway-Attempt': '2',
      'User-Agent': 'gateway/4.1',
    };
    const item = await stored(fields.reference as string);
    expect(JSON.parse(item?.headers?.S ?? 'null')).toEqual(kept);
    expect(item?.headers?.S).not.toMatch(/secret|c2VjcmV0|x-api-key/i);

    const conflicting = signed({ ...fields, amount: 1 });
    expect((await invoke(callbackEvent(conflicting, { headers }))).statusCode).toBe(409);
    const [conflict] = await conflictsOf(fields.reference as string);
    expect(JSON.parse(conflict?.headers?.S ?? 'null')).toEqual(kept);
  });

  it('answers a redelivery 204 duplicate and leaves the stored item as it was', async () => {
    const fields = transaction();
    await invoke(callbackEvent(signed(fields), { requestId: 'first' }));
    const response = await invoke(
      callbackEvent(signed(fields, specKey, { wire: 'utf8' }), { requestId: 'second' }),
    );
    expect([response.statusCode, response.headers?.['x-callback-outcome']]).toEqual([
      204,
      'duplicate',
    ]);
    expect((await stored(fields.reference as string))?.requestId).toEqual({ S: 'first' });
  });

  it('answers other content under a stored reference 409, keeps it for audit once, and leaves the record untouched', async () => {
    const fields = transaction();
    await invoke(callbackEvent(signed(fields)));
    const conflicting = signed({ ...fields, amount: 1 });
    expect((await invoke(callbackEvent(conflicting))).statusCode).toBe(409);
    expect((await invoke(callbackEvent(conflicting))).statusCode).toBe(409);
    expect((await stored(fields.reference as string))?.amount).toEqual({ N: '250075' });
    const conflicts = await conflictsOf(fields.reference as string);
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({
      record: { S: 'conflict' },
      rawBody: { S: conflicting },
      transaction: { M: { amount: { N: '1' } } },
    });
  });

  it('keeps each distinct conflicting content', async () => {
    const fields = transaction();
    await invoke(callbackEvent(signed(fields)));
    await invoke(callbackEvent(signed({ ...fields, amount: 1 })));
    await invoke(callbackEvent(signed({ ...fields, amount: 2 })));
    expect(await conflictsOf(fields.reference as string)).toHaveLength(2);
  });

  it('records a transaction whose username DynamoDB cannot index, leaving it out of the username index', async () => {
    for (const username of ['', `${'ğ'.repeat(1024)}x`]) {
      const fields = transaction({ username });
      expect((await invoke(callbackEvent(signed(fields)))).statusCode).toBe(204);
      const item = await stored(fields.reference as string);
      expect([item?.username, item?.usernameKey]).toEqual([{ S: username }, undefined]);
    }
  });

  it('stores an unsigned callback as unverified', async () => {
    const fields = transaction();
    expect((await invoke(callbackEvent(stringifyJson(fields)))).statusCode).toBe(204);
    expect((await stored(fields.reference as string))?.hashResult).toEqual({ S: 'unverified' });
  });

  it('stores nothing for a refused callback', async () => {
    const fields = transaction();
    expect((await invoke(callbackEvent(signed(fields, 'other-key')))).statusCode).toBe(403);
    expect((await invoke(callbackEvent(signed({ ...fields, currency: 'usd' })))).statusCode).toBe(
      422,
    );
    expect(await stored(fields.reference as string)).toBeUndefined();
  });

  it('records 50 concurrent identical deliveries once and answers every one 204', async () => {
    const fields = transaction();
    const body = signed(fields);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => invoke(callbackEvent(body))),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(204));
    const outcomes = responses.map((r) => r.headers?.['x-callback-outcome']);
    expect(outcomes.filter((o) => o === 'recorded')).toHaveLength(1);
    expect(await stored(fields.reference as string)).toBeDefined();
  });

  it('records one of 50 concurrent different amounts for one reference and refuses the rest 409, keeping them', async () => {
    const fields = transaction();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        invoke(callbackEvent(signed({ ...fields, amount: 1000 + i }))),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const winner = Number((await stored(fields.reference as string))?.amount?.N) - 1000;
    expect(statuses[winner]).toBe(204);
    expect(await conflictsOf(fields.reference as string)).toHaveLength(49);
  });

  it('makes one DynamoDB request per new callback and at most two per duplicate', async () => {
    const recorder = recordRequests(client);
    const body = signed(transaction());
    await invoke(callbackEvent(body));
    expect(recorder.requests()).toEqual(['PutItem']);
    await invoke(callbackEvent(body));
    recorder.stop();
    // DynamoDB Local returns the stored item with the failed condition; dynalite needs a read.
    expect(recorder.requests().slice(1)).toEqual(
      engine === 'dynalite' ? ['PutItem', 'GetItem'] : ['PutItem'],
    );
  });
});
