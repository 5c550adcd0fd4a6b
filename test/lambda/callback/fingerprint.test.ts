import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../lambda/callback/fingerprint.js';
import { validateTransaction } from '../../../lambda/callback/transaction-schema.js';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { type SerializableValue, stringifyJson } from '../../../lambda/json/json-text.js';
import { parseStrictJson } from '../../../lambda/json/strict-json.js';
import { signedBody } from '../../../scripts/gateway/gateway-signer.js';
import { feeFields } from '../../support/fee-fields.js';
import { transaction } from '../../support/fixtures.js';

function fingerprintOf(body: string): string {
  const result = validateTransaction(parseStrictJson(body).value);
  if (!result.success) throw new Error('invalid fixture');
  return fingerprint(result.transaction);
}

describe('fingerprint', () => {
  const fields = transaction({ amount: 1050.7, channel: 'web' });

  it('is the same for escaped and raw UTF-8 wire forms, whitespace and member order', () => {
    const reference = fingerprintOf(stringifyJson(fields));
    const reordered = Object.fromEntries(Object.entries(fields).reverse()) as Record<
      string,
      SerializableValue
    >;
    expect(fingerprintOf(signedBody(fields, 'k1', { wire: 'escaped' }))).toBe(reference);
    expect(fingerprintOf(signedBody(fields, 'k1', { wire: 'utf8' }))).toBe(reference);
    expect(fingerprintOf(JSON.stringify(JSON.parse(stringifyJson(fields)), null, 2))).toBe(
      reference,
    );
    expect(fingerprintOf(stringifyJson(reordered))).toBe(reference);
  });

  it('ignores the hash, so a redelivery signed with a rotated key is the same transaction', () => {
    expect(fingerprintOf(signedBody(fields, 'old-key'))).toBe(
      fingerprintOf(signedBody(fields, 'new-key')),
    );
  });

  it.each([
    ['trailing zeros of a fraction', '1050.70'],
    ['an exponent', '1.0507E3'],
    ['a negative exponent', '105070e-2'],
  ])('treats an amount written with %s as the same amount', (_name, written) => {
    expect(fingerprintOf(stringifyJson({ ...fields, amount: new JsonNumber(written) }))).toBe(
      fingerprintOf(stringifyJson(fields)),
    );
  });

  it('ignores members the interface does not define, whatever their values', () => {
    expect(fingerprintOf(stringifyJson({ ...fields, channel: 'mobile', sentAt: 'now' }))).toBe(
      fingerprintOf(stringifyJson(fields)),
    );
  });

  it('is what earlier versions stored for a transaction without extra members', () => {
    const { channel: _channel, ...plain } = fields;
    // sha256 of the sorted compact JSON of the defined fields, numbers bare, as 0.1 computed it.
    const text = `{"amount":1050.7,"currency":"TRY","firstName":"${plain.firstName}","id":${plain.id},"lastName":"${plain.lastName}","message":"","reference":"${plain.reference}","status":"Confirm","type":"Deposit","username":"deniz.kaya"}`;
    expect(fingerprintOf(stringifyJson(plain))).toBe(
      createHash('sha256').update(text).digest('hex'),
    );
  });

  it.each([
    ['amount', { amount: 1050.71 }],
    ['status', { status: 'Reject' }],
    ['message', { message: 'different' }],
    ['id', { id: 424242 }],
  ])('changes when the %s changes', (_name, change) => {
    expect(fingerprintOf(stringifyJson({ ...fields, ...change }))).not.toBe(
      fingerprintOf(stringifyJson(fields)),
    );
  });

  it('tells a missing message from an empty one', () => {
    const { message: _message, ...withoutMessage } = fields;
    expect(fingerprintOf(stringifyJson(withoutMessage))).not.toBe(
      fingerprintOf(stringifyJson({ ...fields, message: '' })),
    );
  });

  describe('under a declaration that adds an optional field (fixture: fee, version 2)', () => {
    const under = (body: Record<string, SerializableValue>, version?: number) => {
      const result = validateTransaction(parseStrictJson(stringifyJson(body)).value, feeFields);
      if (!result.success) throw new Error('invalid fixture');
      return fingerprint(result.transaction, feeFields, version);
    };
    const { channel: _channel, ...plain } = fields;

    it('is unchanged for a transaction without the field, so items stored before still match', () => {
      expect(under(plain)).toBe(fingerprintOf(stringifyJson(plain)));
    });

    it('covers the field by value, and leaves it out for the version before it', () => {
      const withFee = { ...plain, fee: new JsonNumber('12.50') };
      expect(under(withFee)).toBe(under({ ...plain, fee: new JsonNumber('1.25e1') }));
      expect(under(withFee)).not.toBe(under({ ...plain, fee: 13 }));
      expect(under(withFee, 1)).toBe(fingerprintOf(stringifyJson(plain)));
    });
  });
});
