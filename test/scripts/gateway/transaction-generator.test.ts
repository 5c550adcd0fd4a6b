import { describe, expect, it } from 'vitest';
import {
  enumeration,
  type FieldDeclarations,
  integer,
  text,
  transactionFields,
} from '../../../lambda/callback/transaction-fields.js';
import { validateTransaction } from '../../../lambda/callback/transaction-schema.js';
import { parseStrictJson } from '../../../lambda/json/strict-json.js';
import {
  callbackBody,
  type GatewayTransaction,
} from '../../../scripts/gateway/gateway-callback.js';
import { seededRandom } from '../../../scripts/gateway/seeded-random.js';
import { generateTransactions } from '../../../scripts/gateway/transaction-generator.js';
import { feeFields } from '../../support/fee-fields.js';

describe('generateTransactions', () => {
  it('samples a field a declaration adds by its kind, in bodies that declaration accepts', () => {
    const transactions = generateTransactions(seededRandom('fee'), 200, feeFields);

    const withFee = transactions.filter((t) => t.fee !== undefined);
    const valid = transactions.filter(
      (t) =>
        validateTransaction(parseStrictJson(callbackBody(t, 'k', {}, feeFields)).value, feeFields)
          .success,
    );
    // Optional, so present in about half; always a plain decimal.
    expect(withFee.length).toBeGreaterThan(60);
    expect(withFee.length).toBeLessThan(140);
    expect(withFee.every((t) => /^\d+\.\d{2}$/.test(t.fee ?? ''))).toBe(true);
    expect(valid).toHaveLength(200);
  });

  it('writes the added field into the body in declaration order, after the real ones', () => {
    const withFee = generateTransactions(seededRandom('order'), 40, feeFields).filter(
      (t) => t.fee !== undefined,
    );
    const body = callbackBody(withFee[0] as GatewayTransaction, 'k', { hash: false }, feeFields);

    expect(Object.keys(JSON.parse(body))).toEqual([
      ...['id', 'username', 'firstName', 'lastName', 'amount', 'currency', 'type', 'status'],
      ...['message', 'reference', 'fee', 'hash'],
    ]);
  });

  it('gives the real declaration no member it does not declare', () => {
    const names = new Set(generateTransactions(seededRandom('real'), 50).flatMap(Object.keys));
    expect([...names].sort()).toEqual([
      'amount',
      'currency',
      'firstName',
      'id',
      'lastName',
      'message',
      'reference',
      'status',
      'type',
      'username',
    ]);
  });

  it('samples a required field of each kind in every body, as its declaration accepts', () => {
    const fields = {
      ...transactionFields,
      channel: enumeration({ values: ['web', 'mobile'], since: 2, rule: 'web or mobile' }),
      attempt: integer({ since: 2, rule: 'a whole number' }),
      note: text({ since: 2, rule: 'free text' }),
    } as const satisfies FieldDeclarations;

    const transactions = generateTransactions(seededRandom('kinds'), 50, fields);

    for (const sample of transactions) {
      const added = sample as GatewayTransaction & Record<'channel' | 'attempt' | 'note', string>;
      expect(['web', 'mobile']).toContain(added.channel);
      expect(added.attempt).toMatch(/^\d+$/);
      expect(added.note).toMatch(/^sample \d{6}$/);
      const body = parseStrictJson(callbackBody(sample, 'k', {}, fields)).value;
      expect(validateTransaction(body, fields).success).toBe(true);
    }
  });
});
