import { describe, expect, it } from 'vitest';
import { validateTransaction } from '../../../lambda/callback/transaction-schema.js';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { type SerializableValue, stringifyJson } from '../../../lambda/json/json-text.js';
import { parseStrictJson } from '../../../lambda/json/strict-json.js';
import { feeFields } from '../../support/fee-fields.js';
import { transaction } from '../../support/fixtures.js';

function validate(fields: Record<string, SerializableValue>) {
  return validateTransaction(parseStrictJson(stringifyJson(fields)).value);
}

function failingFields(fields: Record<string, SerializableValue>): string[] {
  const result = validate(fields);
  return result.success ? [] : result.errors.map((error) => error.field);
}

describe('transaction schema', () => {
  it('accepts the gateway transaction and keeps numbers as exact decimal text', () => {
    const result = validate(transaction({ id: 9007199254740993n, amount: 1050.75 }));
    expect(result.success && result.transaction).toMatchObject({
      id: '9007199254740993',
      amount: '1050.75',
    });
  });

  /** Written forms and what each is kept as: an amount's plain decimal, an id's integer. */
  const plainForms = {
    amount: {
      '1E3': '1000',
      '1.0E7': '10000000',
      '1e+16': '10000000000000000',
      '1050.70': '1050.7',
      '105070e-2': '1050.7',
      '7.0': '7',
      '-0': '0',
      '-0.0e5': '0',
      '0.050': '0.05',
    },
    id: { '4.2e1': '42', '42.000': '42', '4200E-2': '42', '-0': '0' },
  };
  it.each(
    Object.entries(plainForms).flatMap(([field, forms]) =>
      Object.entries(forms).map(([written, plain]) => ({ field, written, plain })),
    ),
  )('accepts the $field $written as $plain', ({ field, written, plain }) => {
    const result = validate(transaction({ [field]: new JsonNumber(written) }));
    expect(result.success && result.transaction[field as 'amount' | 'id']).toBe(plain);
  });

  it('names the field and its bound when a number is out of range', () => {
    const result = validate(transaction({ amount: new JsonNumber('1e40') }));
    expect(result.success ? [] : result.errors).toEqual([
      { field: 'amount', message: 'must be a non-negative decimal of at most 38 digits' },
    ]);
  });

  it('keeps members added by newer gateway versions, apart from the known fields', () => {
    const result = validate(transaction({ channel: 'mobile', fee: 12.5 }));
    expect(result.success && Object.keys(result.transaction.extra)).toEqual(['channel', 'fee']);
  });

  it('accepts an empty message and a missing message', () => {
    expect(validate(transaction({ message: '' })).success).toBe(true);
    const { message: _message, ...withoutMessage } = transaction();
    expect(validate(withoutMessage).success).toBe(true);
  });

  it('names every failing field at once', () => {
    const fields = transaction({
      id: -1,
      amount: '100',
      currency: 'try',
      type: 'Refund',
      status: 'Ok',
      reference: '',
    });
    expect(failingFields(fields).sort()).toEqual([
      'amount',
      'currency',
      'id',
      'reference',
      'status',
      'type',
    ]);
  });

  it('says a missing field is required', () => {
    const { username: _username, ...fields } = transaction();
    const result = validate(fields);
    expect(result.success ? [] : result.errors).toContainEqual({
      field: 'username',
      message: 'is required',
    });
  });

  it.each([
    ['a fractional id', { id: 1.5 }, 'id'],
    ['a fractional id in exponent form', { id: new JsonNumber('15e-1') }, 'id'],
    ['a negative id in exponent form', { id: new JsonNumber('-1E2') }, 'id'],
    ['an id of 39 digits written with an exponent', { id: new JsonNumber('1e38') }, 'id'],
    ['a negative amount', { amount: -5 }, 'amount'],
    ['an amount past the double range of digits', { amount: new JsonNumber('1e-400') }, 'amount'],
    [
      'an amount with more digits than DynamoDB keeps',
      { amount: BigInt(`1${'0'.repeat(38)}`) },
      'amount',
    ],
    ['a reference with a control character', { reference: 'ref\u0000x' }, 'reference'],
    ['a reference over 256 characters', { reference: 'r'.repeat(257) }, 'reference'],
    ['a name that is not a string', { firstName: 42 }, 'firstName'],
    ['a hash that is not a string', { hash: 1 }, 'hash'],
  ])('rejects %s', (_name, overrides, field) => {
    expect(failingFields(transaction(overrides as Record<string, SerializableValue>))).toEqual([
      field,
    ]);
  });

  it('rejects a body that is not an object', () => {
    for (const body of ['[]', 'null', '"x"', '7']) {
      const result = validateTransaction(parseStrictJson(body).value);
      expect(result.success ? [] : result.errors).toEqual([
        { field: '(body)', message: 'must be a JSON object' },
      ]);
    }
  });

  it('never echoes a submitted value in an error message', () => {
    const result = validate(transaction({ firstName: 12345678, currency: 'secret-ish' }));
    const text = JSON.stringify(result);
    expect(text).not.toContain('12345678');
    expect(text).not.toContain('secret-ish');
  });

  it('validates a field a declaration adds by its kind, and no longer keeps it as extra', () => {
    const under = (fields: Record<string, SerializableValue>) =>
      validateTransaction(parseStrictJson(stringifyJson(fields)).value, feeFields);

    const accepted = under(transaction({ fee: new JsonNumber('12.50'), channel: 'web' }));
    const refused = under(transaction({ fee: -1 }));
    const text = under(transaction({ fee: '12.50' }));

    expect(accepted.success && accepted.transaction).toMatchObject({
      fee: '12.5',
      extra: { channel: 'web' },
    });
    expect(under(transaction()).success).toBe(true);
    expect(refused.success || refused.errors).toEqual([
      { field: 'fee', message: 'must be a non-negative decimal of at most 38 digits' },
    ]);
    expect(text.success || text.errors).toEqual([
      { field: 'fee', message: 'must be a JSON number' },
    ]);
  });
});
