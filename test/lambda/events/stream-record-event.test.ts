import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Transaction } from '../../../lambda/callback/transaction-schema.js';
import { UnpublishableRecordError } from '../../../lambda/events/errors.js';
import { eventForRecord, putEventsEntry } from '../../../lambda/events/stream-record-event.js';
import type {
  hashResults,
  TransactionCompletedDetail,
} from '../../../lambda/events/transaction-event.js';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { conflictItem, transactionItem } from '../../../lambda/storage/transaction-item.js';
import type { HashResult } from '../../../lambda/storage/transaction-store.js';
import { feeFields } from '../../support/fee-fields.js';
import { transaction } from '../../support/fixtures.js';
import { recordOf, streamRecord } from '../../support/stream-records.js';

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected an event');
  return value;
}

describe('eventForRecord', () => {
  it('turns the first insert of a transaction into one Transaction Completed event', () => {
    const record = recordOf(transaction({ reference: 'ref-completed', message: 'ok' }));

    const event = eventForRecord(streamRecord('INSERT', transactionItem(record)));

    expect(event).toEqual({
      detailType: 'Transaction Completed',
      detail: {
        id: record.transaction.id,
        username: 'deniz.kaya',
        firstName: 'Çağrı',
        lastName: 'Öztürk',
        amount: '250075',
        currency: 'TRY',
        type: 'Deposit',
        status: 'Confirm',
        message: 'ok',
        reference: 'ref-completed',
        extra: {},
        fingerprint: record.fingerprint,
        receivedAt: '2025-03-14T09:26:53.589Z',
        hashResult: 'verified',
      },
    });
  });

  it('keeps numbers digit for digit, as text, where a double would round them', () => {
    const record = recordOf(
      transaction({
        id: 9007199254740993n,
        amount: new JsonNumber('12345678901234567890123456789.012345678'),
        fee: new JsonNumber('0.10'),
      }),
    );

    const event = eventForRecord(streamRecord('INSERT', transactionItem(record)));

    expect(event?.detail).toMatchObject({
      id: '9007199254740993',
      amount: '12345678901234567890123456789.012345678',
      extra: { fee: '0.10' },
    });
    expect(JSON.parse(putEventsEntry(defined(event), 'bus').Detail ?? '')).toMatchObject({
      id: '9007199254740993',
      amount: '12345678901234567890123456789.012345678',
    });
  });

  it('carries members added by newer gateway versions under extra', () => {
    const record = recordOf(
      transaction({ channel: 'mobile', tags: ['a', 'b'], device: { trusted: true, score: 0.5 } }),
    );

    const event = eventForRecord(streamRecord('INSERT', transactionItem(record)));

    expect(event?.detail).toMatchObject({
      extra: { channel: 'mobile', tags: ['a', 'b'], device: { trusted: true, score: '0.5' } },
    });
  });

  it('never publishes the raw body, the hash, the key id, the request id, the source IP or the headers', () => {
    const record = recordOf(transaction({ hash: 'a'.repeat(64) }), {
      headers: { 'User-Agent': 'gateway-ua/9' },
    });
    const item = transactionItem(record);
    expect(item.headers).toEqual({ S: '{"User-Agent":"gateway-ua/9"}' });

    const event = eventForRecord(streamRecord('INSERT', item));

    for (const secretish of [
      'rawBody',
      'hash',
      'keyId',
      'requestId',
      'sourceIp',
      'headers',
      'timeShard',
    ]) {
      expect(event?.detail).not.toHaveProperty(secretish);
    }
    const detail = putEventsEntry(defined(event), 'bus').Detail;
    expect(detail).not.toContain(record.rawBody);
    expect(detail).not.toContain('gateway-ua/9');
  });

  it.each(['MODIFY', 'REMOVE'] as const)('produces nothing for a %s', (eventName) => {
    const item = transactionItem(recordOf(transaction()));

    expect(eventForRecord(streamRecord(eventName, item))).toBeUndefined();
  });

  it('produces nothing for an item that is neither a transaction nor a conflict', () => {
    expect(
      eventForRecord(streamRecord('INSERT', { reference: { S: 'x' }, record: { S: 'note' } })),
    ).toBeUndefined();
  });

  it('turns a conflict insert into one Transaction Conflict event for the claimed reference', () => {
    const conflicting = recordOf(transaction({ reference: 'ref-claimed', amount: 1 }), {
      requestId: 'req-conflict',
      hashResult: 'unverified',
      headers: { 'User-Agent': 'gateway-ua/9' },
    });

    const event = eventForRecord(streamRecord('INSERT', conflictItem(conflicting)));

    expect(event).toMatchObject({
      detailType: 'Transaction Conflict',
      detail: {
        reference: 'ref-claimed',
        amount: '1',
        fingerprint: conflicting.fingerprint,
        receivedAt: conflicting.receivedAt,
        hashResult: 'unverified',
        requestId: 'req-conflict',
      },
    });
    expect(event?.detail).not.toHaveProperty('rawBody');
    expect(event?.detail).not.toHaveProperty('headers');
  });

  it('refuses an insert that claims to be a transaction but breaks the schema, naming fields not values', () => {
    const item = transactionItem(recordOf(transaction()));
    item.amount = { N: '-5' };
    delete item.currency;

    const map = () => eventForRecord(streamRecord('INSERT', item));

    expect(map).toThrow(UnpublishableRecordError);
    expect(map).toThrow(/amount: must be a non-negative decimal/);
    expect(map).toThrow(/currency: is required/);
    expect(map).not.toThrow(/-5/);
  });

  it('refuses a number field that DynamoDB does not hold as a number', () => {
    const item = transactionItem(recordOf(transaction()));
    item.amount = { BOOL: true };

    expect(() => eventForRecord(streamRecord('INSERT', item))).toThrow(
      /amount: must be decimal text/,
    );
  });

  it('refuses a conflict insert whose claimed transaction is not a map', () => {
    const item = conflictItem(recordOf(transaction()));
    item.transaction = { S: 'not a map' };

    const map = () => eventForRecord(streamRecord('INSERT', item));

    expect(map).toThrow(UnpublishableRecordError);
    expect(map).toThrow('The conflict item has no `transaction` map');
  });

  it('refuses a conflict insert without its delivery attributes, naming each one', () => {
    const item = conflictItem(recordOf(transaction()));
    for (const name of ['fingerprint', 'receivedAt', 'hashResult', 'requestId']) delete item[name];

    const map = () => eventForRecord(streamRecord('INSERT', item));

    expect(map).toThrow(UnpublishableRecordError);
    for (const name of ['fingerprint', 'receivedAt', 'hashResult', 'requestId']) {
      expect(map).toThrow(new RegExp(`${name}: `));
    }
  });

  it('refuses an insert without a new image (a KEYS_ONLY stream)', () => {
    const record = streamRecord('INSERT', transactionItem(recordOf(transaction())));
    delete record.dynamodb?.NewImage;

    expect(() => eventForRecord(record)).toThrow(/NEW_IMAGE/);
  });
});

describe('eventForRecord under a declaration that adds a field (fixture: fee, version 2)', () => {
  it('publishes the added decimal as decimal text, checked by its rule', () => {
    const record = recordOf(transaction({ fee: new JsonNumber('0.10') }), {}, feeFields);
    const item = transactionItem(record);

    const event = eventForRecord(streamRecord('INSERT', item), feeFields);
    const broken = () =>
      eventForRecord(streamRecord('INSERT', { ...item, fee: { N: '-1' } }), feeFields);

    expect(event?.detail).toMatchObject({ fee: '0.1', extra: {} });
    expect(JSON.parse(putEventsEntry(defined(event), 'bus').Detail ?? '')).toMatchObject({
      fee: '0.1',
    });
    expect(broken).toThrow(/fee: must be a non-negative decimal/);
  });

  it('publishes a conflict stored before the field was declared with its extra member as the field', () => {
    const item = conflictItem(recordOf(transaction({ fee: new JsonNumber('2.50'), channel: 'x' })));

    const event = eventForRecord(streamRecord('INSERT', item), feeFields);

    expect(event?.detail).toMatchObject({ fee: '2.5', extra: { channel: 'x' } });
  });
});

describe('putEventsEntry', () => {
  it('names the product as source and puts the event on the configured bus', () => {
    const event = eventForRecord(streamRecord('INSERT', transactionItem(recordOf(transaction()))));

    expect(putEventsEntry(defined(event), 'transactions-bus')).toEqual({
      EventBusName: 'transactions-bus',
      Source: 'callback-receiver',
      DetailType: 'Transaction Completed',
      Detail: JSON.stringify(event?.detail),
    });
  });
});

describe('the Transaction Completed detail type', () => {
  it('has every known field of the validated transaction but its hash, typed alike', () => {
    type Delivered = 'extra' | 'fingerprint' | 'receivedAt' | 'hashResult';
    expectTypeOf<Omit<TransactionCompletedDetail, Delivered>>().toEqualTypeOf<
      Omit<Transaction, 'hash' | 'extra'>
    >();
  });

  it('accepts every hash result the receiver records', () => {
    expectTypeOf<(typeof hashResults)[number]>().toEqualTypeOf<HashResult>();
  });
});
