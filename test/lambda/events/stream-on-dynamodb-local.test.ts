import { DeleteItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { expect, it } from 'vitest';
import { eventForRecord } from '../../../lambda/events/stream-record-event.js';
import { transactionCorrectedDetailSchema } from '../../../lambda/events/transaction-corrected.js';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { settleConflict } from '../../../scripts/operations/settle/settle.js';
import { describeOnStreams } from '../../support/dynamodb-local-stream.js';
import { transaction } from '../../support/fixtures.js';
import { consumer, handOffTables } from './support/stream-hand-off.js';

/**
 * The hand-off end to end on DynamoDB Local, the engine that produces real stream records: the
 * receiver records callbacks, the stream is read as Lambda's poller reads it, and the records go
 * through the stream consumer. Only EventBridge is a fake. How a failed batch is recovered is
 * stream-recovery-on-dynamodb-local.test.ts's subject.
 */
const setUp = handOffTables();

describeOnStreams('table stream to events, on DynamoDB Local', () => {
  it('maps the stream record of a recorded callback to its Transaction Completed event', async () => {
    const table = await setUp();
    const fields = transaction({
      id: 9007199254740993n,
      amount: new JsonNumber('123456789012345678901234567890.5'),
      channel: 'mobile',
    });
    expect(await table.post(fields)).toBe(204);

    const records = await table.records();

    expect(records.map((record) => record.eventName)).toEqual(['INSERT']);
    const event = eventForRecord(records[0] as DynamoDBRecord);
    expect(event).toEqual({
      detailType: 'Transaction Completed',
      detail: {
        id: '9007199254740993',
        username: fields.username,
        firstName: fields.firstName,
        lastName: fields.lastName,
        amount: '123456789012345678901234567890.5',
        currency: fields.currency,
        type: fields.type,
        status: fields.status,
        message: fields.message,
        reference: fields.reference,
        extra: { channel: 'mobile' },
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        hashResult: 'verified',
      },
    });

    const { invoke, details } = consumer();
    expect(await invoke(records)).toEqual({ batchItemFailures: [] });
    expect(details()).toEqual([{ detailType: 'Transaction Completed', detail: event?.detail }]);
  });

  it("keeps DynamoDB's form of a number: the same value, trailing fraction zeros dropped", async () => {
    const table = await setUp();
    await table.post(transaction({ amount: new JsonNumber('1050.70') }));

    const [record] = await table.records();

    expect(eventForRecord(record as DynamoDBRecord)?.detail).toMatchObject({ amount: '1050.7' });
  });

  it('gets no stream record, so no event, from a duplicate delivery', async () => {
    const table = await setUp();
    const fields = transaction();

    expect([await table.post(fields), await table.post(fields)]).toEqual([204, 204]);
    const records = await table.records();

    expect(records).toHaveLength(1);
    const { invoke, eventBridge } = consumer();
    await invoke(records);
    expect(eventBridge.published).toEqual([fields.reference]);
  });

  it('publishes one Transaction Conflict for conflicting content, and none when it is repeated', async () => {
    const table = await setUp();
    const recorded = transaction({ amount: 100 });
    const conflicting = { ...recorded, amount: 999 };
    const reference = String(recorded.reference);

    const statuses = [
      await table.post(recorded),
      await table.post(conflicting),
      await table.post(conflicting),
    ];
    const records = await table.records();
    const { invoke, details } = consumer();
    await invoke(records);

    expect(statuses).toEqual([204, 409, 409]);
    // The repeat is counted on the kept conflict: a MODIFY, which is no event.
    expect(records.map((record) => record.eventName)).toEqual(['INSERT', 'INSERT', 'MODIFY']);
    expect(details()).toEqual([
      {
        detailType: 'Transaction Completed',
        detail: expect.objectContaining({ reference, amount: '100' }),
      },
      {
        detailType: 'Transaction Conflict',
        detail: expect.objectContaining({ reference, amount: '999' }),
      },
    ]);
  });

  it('publishes one Transaction Corrected, with before and after, when an operator accepts the received content', async () => {
    const table = await setUp();
    const recorded = transaction({ amount: 100 });
    const corrected = { ...recorded, amount: 120, note: 'after review' };
    const reference = String(recorded.reference);
    await table.post(recorded);
    await table.post(corrected);
    const decision = { actor: 'local:ops', reason: 'OPS-7', at: new Date().toISOString() };

    await settleConflict(
      { client: table.dynamodb, tableName: table.tableName },
      {
        reference,
        decision: { ...decision, accept: 'received' },
      },
    );
    // Afterwards: the corrected content is a duplicate (no record), the replaced one a quiet 409.
    expect([await table.post(corrected), await table.post(recorded)]).toEqual([204, 409]);
    const records = await table.records();
    const { invoke, details } = consumer();
    expect(await invoke(records)).toEqual({ batchItemFailures: [] });

    expect(records.map((record) => record.eventName)).toEqual([
      'INSERT',
      'INSERT',
      'MODIFY',
      'INSERT',
    ]);
    const published = details();
    expect(published.map((event) => event.detailType)).toEqual([
      'Transaction Completed',
      'Transaction Conflict',
      'Transaction Corrected',
    ]);
    const detail = transactionCorrectedDetailSchema.parse(published[2]?.detail);
    expect(detail).toMatchObject({
      reference,
      version: 2,
      correctedAt: decision.at,
      before: { amount: '100', extra: {} },
      after: { amount: '120', extra: { note: 'after review' } },
    });
    expect(detail.before.fingerprint).not.toBe(detail.after.fingerprint);
    // Who and why stay in the table.
    expect(JSON.stringify(published[2]?.detail)).not.toMatch(/OPS-7|local:ops/);
  });

  it('publishes nothing when an operator keeps the stored content, nor for its later deliveries', async () => {
    const table = await setUp();
    const recorded = transaction({ amount: 100 });
    const conflicting = { ...recorded, amount: 999 };
    await table.post(recorded);
    await table.post(conflicting);

    await settleConflict(
      { client: table.dynamodb, tableName: table.tableName },
      {
        reference: String(recorded.reference),
        decision: {
          accept: 'stored',
          actor: 'local:ops',
          reason: 'OPS-8',
          at: new Date().toISOString(),
        },
      },
    );
    expect(await table.post(conflicting)).toBe(409);
    const records = await table.records();
    const { invoke, details } = consumer();
    await invoke(records);

    expect(records.map((record) => record.eventName)).toEqual([
      'INSERT',
      'INSERT',
      'MODIFY',
      'MODIFY',
    ]);
    expect(details().map((event) => event.detailType)).toEqual([
      'Transaction Completed',
      'Transaction Conflict',
    ]);
  });

  it('publishes nothing when a recorded item is modified or removed', async () => {
    const table = await setUp();
    const fields = transaction();
    await table.post(fields);
    const key = { reference: { S: String(fields.reference) } };
    await table.dynamodb.send(
      new UpdateItemCommand({
        TableName: table.tableName,
        Key: key,
        UpdateExpression: 'SET #note = :note',
        ExpressionAttributeNames: { '#note': 'note' },
        ExpressionAttributeValues: { ':note': { S: 'checked by operator' } },
      }),
    );
    await table.dynamodb.send(new DeleteItemCommand({ TableName: table.tableName, Key: key }));

    const records = await table.records();
    const { invoke, eventBridge } = consumer();
    const response = await invoke(records);

    expect(records.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    expect(response.batchItemFailures).toEqual([]);
    expect(eventBridge.published).toEqual([fields.reference]);
  });
});
