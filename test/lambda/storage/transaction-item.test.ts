import { describe, expect, it } from 'vitest';
import {
  readTransactionAttributes,
  transactionItem,
} from '../../../lambda/storage/transaction-item.js';
import { feeFields } from '../../support/fee-fields.js';
import { transaction } from '../../support/fixtures.js';
import { recordOf } from '../../support/stream-records.js';

describe('transactionItem', () => {
  it('writes every declared field by its kind, and the version only past 1', () => {
    const item = transactionItem(recordOf(transaction({ amount: 1050.7 })));
    expect(item).toMatchObject({
      id: { N: expect.any(String) },
      amount: { N: '1050.7' },
      currency: { S: 'TRY' },
      message: { S: '' },
    });
    expect(item.fieldsVersion).toBeUndefined();
  });

  it('keys the username index on the username in lower case, keeping the username as sent', () => {
    const item = transactionItem(recordOf(transaction({ username: 'Grace.HOPPER-İ' })));
    expect([item.username, item.usernameKey]).toEqual([
      { S: 'Grace.HOPPER-İ' },
      { S: 'grace.hopper-i̇' },
    ]);
  });

  it('leaves out a username whose lower case DynamoDB cannot index (over 2,048 bytes)', () => {
    // 'İ' is 2 bytes; its lower case, 'i' and a combining dot, 3: 700 of them fit only as sent.
    const item = transactionItem(recordOf(transaction({ username: 'İ'.repeat(700) })));
    expect(item.usernameKey).toBeUndefined();
  });
});

describe('readTransactionAttributes', () => {
  const stored = {
    reference: { S: 'r-1' },
    amount: { N: '100' },
    extra: { S: '{"channel":"web","fee":12.50}' },
  };

  it('reads an extra member the declaration now defines as that field, as it would be stored', () => {
    expect(readTransactionAttributes(stored, feeFields)).toEqual({
      reference: { S: 'r-1' },
      amount: { N: '100' },
      fee: { N: '12.5' },
      extra: { S: '{"channel":"web"}' },
    });
  });

  it('drops `extra` once every member is a field, and leaves items of the real declaration alone', () => {
    const onlyFee = { ...stored, extra: { S: '{"fee":1e1}' } };
    expect(readTransactionAttributes(onlyFee, feeFields)).toEqual({
      reference: { S: 'r-1' },
      amount: { N: '100' },
      fee: { N: '10' },
    });
    expect(readTransactionAttributes(stored)).toEqual(stored);
  });

  it('keeps a value the field refuses, and never overwrites a field the item holds', () => {
    const refused = { ...stored, extra: { S: '{"fee":"twelve"}' } };
    const both = { ...stored, fee: { N: '3' }, extra: { S: '{"fee":4}' } };
    expect(readTransactionAttributes(refused, feeFields)).toEqual(refused);
    expect(readTransactionAttributes(both, feeFields)).toEqual(both);
  });
});
