import { NumberValueImpl as NumberValue } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { conflictsTable } from '../../../scripts/operations/transaction-listing.js';

const conflict = (fingerprint: string, more: Record<string, unknown> = {}) => ({
  receivedAt: '2026-11-20T10:00:00.000Z',
  fingerprint,
  requestId: `req-${fingerprint.slice(0, 4)}`,
  transaction: {
    type: 'Deposit',
    status: 'Confirm',
    amount: new NumberValue('1250.50'),
    currency: 'EUR',
    message: 'corrected',
  },
  ...more,
});

describe('the conflicting deliveries query get shows', () => {
  it('says there are none when none were kept', () => {
    expect(conflictsTable([])).toBe('\nNo conflicting deliveries.\n');
  });

  it('one delivery: counted once, what it claimed, and open while undecided', () => {
    const table = conflictsTable([conflict('a'.repeat(64))]);

    expect(table).toMatch(/^\n1 conflicting delivery kept for audit \(refused with 409\):\n/);
    const [, , , row] = table.split('\n');
    expect(row).toMatch(
      /^2026-11-20T10:00:00\.000Z\s+1\s+Deposit\s+Confirm\s+1250\.50\s+EUR\s+corrected\s+req-aaaa\s+open$/,
    );
  });

  it('several: each with its count and the decision kept for its content on the transaction', () => {
    const table = conflictsTable(
      [
        conflict('a'.repeat(64), { deliveries: new NumberValue('3') }),
        conflict('b'.repeat(64), { transaction: undefined }),
      ],
      { ['a'.repeat(64)]: { resolution: 'stored' } },
    );

    const [, title, , first, second] = table.split('\n');
    expect(title).toBe('2 conflicting deliveries kept for audit (refused with 409):');
    expect(first).toMatch(/\s+3\s+Deposit.*req-aaaa\s+stored$/);
    // A conflict item without its content shows blanks, not a failure.
    expect(second).toMatch(/^2026-11-20T10:00:00\.000Z\s+1\s+req-bbbb\s+open$/);
  });
});
