import { describe, expect, it } from 'vitest';
import { transactionFields } from '../../../../lambda/callback/transaction-fields.js';
import { valuesDigest } from '../../../../scripts/operations/reconcile/values-digest.js';
import { feeFields } from '../../../support/fee-fields.js';

const values = { amount: '1050.70', currency: 'EUR', type: 'Deposit', status: 'Confirm' };

describe('the digest reconcile holds per reference', () => {
  const digest = valuesDigest(transactionFields);

  it('is equal for amounts reconcile calls equal, zero written in any form included', () => {
    expect(digest({ ...values, amount: '1050.7' })).toBe(digest(values));
    for (const zero of ['0.00', '-0', '0e3']) {
      expect(digest({ ...values, amount: zero })).toBe(digest({ ...values, amount: '0' }));
    }
  });

  it('differs for other values, and keeps a damaged amount apart from every decimal', () => {
    expect(digest({ ...values, status: 'Reject' })).not.toBe(digest(values));
    expect(digest({ ...values, amount: 'n/a' })).not.toBe(digest({ ...values, amount: '0' }));
    expect(digest({ ...values, amount: 'n/a' })).toBe(digest({ ...values, amount: 'n/a' }));
  });

  it('reads an optional field a row leaves out as empty', () => {
    // The fixture declaration's values: the real ones and its optional `fee`.
    const digestOf = valuesDigest(feeFields) as (values: Record<string, string>) => number;

    expect(digestOf(values)).toBe(digestOf({ ...values, fee: '' }));
    expect(digestOf({ ...values, fee: '0.25' })).not.toBe(digestOf(values));
  });
});
