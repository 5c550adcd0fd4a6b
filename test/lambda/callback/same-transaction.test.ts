import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../lambda/callback/fingerprint.js';
import { isSameTransaction } from '../../../lambda/callback/same-transaction.js';
import { validateTransaction } from '../../../lambda/callback/transaction-schema.js';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { type SerializableValue, stringifyJson } from '../../../lambda/json/json-text.js';
import { parseStrictJson } from '../../../lambda/json/strict-json.js';
import { feeFields } from '../../support/fee-fields.js';
import { transaction } from '../../support/fixtures.js';

/** A delivery as the receiver judges it under the fixture declaration (`fee` declared, v2). */
function delivery(fields: Record<string, SerializableValue>) {
  const result = validateTransaction(parseStrictJson(stringifyJson(fields)).value, feeFields);
  if (!result.success) throw new Error('invalid fixture');
  return {
    transaction: result.transaction,
    fingerprint: fingerprint(result.transaction, feeFields),
  };
}

/** What the store returns of an item stored under the real declaration (version 1). */
function storedBefore(fields: Record<string, SerializableValue>) {
  const result = validateTransaction(parseStrictJson(stringifyJson(fields)).value);
  if (!result.success) throw new Error('invalid fixture');
  const { extra } = result.transaction;
  return {
    kind: 'exists' as const,
    fingerprint: fingerprint(result.transaction),
    ...(Object.keys(extra).length > 0 ? { extra: stringifyJson(extra) } : {}),
  };
}

describe('isSameTransaction', () => {
  const fields = transaction({ fee: new JsonNumber('12.50') });

  it('holds for an item stored under the current version with the same fingerprint', () => {
    const now = delivery(fields);
    const stored = { kind: 'exists' as const, fieldsVersion: 2, ...now };
    expect(isSameTransaction(stored, delivery({ ...fields, fee: 12.5 }), feeFields)).toBe(true);
  });

  it('holds for an item stored before fee was declared that kept the same fee as an extra member', () => {
    expect(
      isSameTransaction(storedBefore(fields), delivery({ ...fields, fee: 12.5 }), feeFields),
    ).toBe(true);
  });

  it('fails when the fee kept then differs, or is dropped now', () => {
    const { fee: _fee, ...withoutFee } = fields;
    expect(
      isSameTransaction(storedBefore(fields), delivery({ ...fields, fee: 13 }), feeFields),
    ).toBe(false);
    expect(isSameTransaction(storedBefore(fields), delivery(withoutFee), feeFields)).toBe(false);
  });

  it('holds when the earlier item had no fee at all: it cannot contradict one', () => {
    const { fee: _fee, ...withoutFee } = fields;
    expect(isSameTransaction(storedBefore(withoutFee), delivery(fields), feeFields)).toBe(true);
  });

  it("still compares the earlier version's fields", () => {
    expect(
      isSameTransaction(storedBefore(fields), delivery({ ...fields, amount: 1 }), feeFields),
    ).toBe(false);
  });

  it('compares an item stored under the current version by its fingerprint alone', () => {
    const stored = { kind: 'exists' as const, fieldsVersion: 2, ...delivery(fields) };
    expect(isSameTransaction(stored, delivery({ ...fields, fee: 13 }), feeFields)).toBe(false);
  });
});
