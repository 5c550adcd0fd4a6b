import { describe, expect, it } from 'vitest';
import {
  type FieldDeclaration,
  fieldNames,
  fieldsVersion,
  transactionFields,
} from '../../../lambda/callback/transaction-fields.js';
import { listAttributesOf } from '../../../lambda/storage/table-definition.js';
import { feeFields } from '../../support/fee-fields.js';

const declared = Object.entries(transactionFields) as [string, FieldDeclaration][];
/** The gateway's members in its order, all there since version 1. */
const firstInterface = [
  ...['id', 'username', 'firstName', 'lastName', 'amount', 'currency', 'type', 'status'],
  ...['message', 'reference', 'hash'],
];

describe('the transaction fields declaration', () => {
  it('is version 1, and a fixture that adds a field in version 2 is version 2', () => {
    expect(fieldsVersion(transactionFields)).toBe(1);
    expect(fieldsVersion(feeFields)).toBe(2);
  });

  it('declares the gateway interface in its member order', () => {
    expect(Object.keys(transactionFields)).toEqual(firstInterface);
  });

  it('keeps version 1 to the first interface, and makes every later field optional', () => {
    // `since` defaults to 1: a field added later that forgot it would change the fingerprint of
    // every stored transaction (their redeliveries answered 409), and a required one would refuse
    // the redeliveries that lack it. Neither may pass unnoticed.
    expect(fieldNames(transactionFields, (field) => field.since === 1)).toEqual(firstInterface);
    for (const [name, field] of [...declared, ...Object.entries(feeFields)]) {
      if (field.since > 1) expect.soft(field.required, name).toBe(false);
    }
  });

  it('gives every enumeration its values and rules only to text fields', () => {
    for (const [name, field] of declared) {
      expect.soft(field.kind === 'enumeration', name).toBe((field.values?.length ?? 0) > 0);
      if (field.checks !== undefined) expect.soft(field.kind, name).toBe('text');
    }
  });

  it('compares, publishes, lists and reconciles what the product always has', () => {
    expect(fieldNames(transactionFields, (field) => field.fingerprinted)).not.toContain('hash');
    expect(fieldNames(transactionFields, (field) => !field.published)).toEqual(['hash']);
    expect(fieldNames(transactionFields, (field) => field.reconciled)).toEqual([
      'amount',
      'currency',
      'type',
      'status',
    ]);
    // A reconciled or listed field must be one the table holds in full: never the hash.
    for (const [name, field] of declared) {
      if (field.listed !== false || field.reconciled) expect.soft(field.published, name).toBe(true);
    }
  });

  it('lists what `summary` groups and sums by, since it reads only the list indexes', () => {
    expect(listAttributesOf(transactionFields)).toEqual(
      expect.arrayContaining(['amount', 'currency', 'type', 'status']),
    );
  });
});
