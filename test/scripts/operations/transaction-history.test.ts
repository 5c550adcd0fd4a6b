import { NumberValueImpl as NumberValue } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  historyRows,
  historyTable,
  transactionVersions,
} from '../../../scripts/operations/transaction-history.js';
import type { StoredItem } from '../../../scripts/table/stored-item.js';

const number = (digits: string) => new NumberValue(digits);

/** A transaction corrected twice: the gateway's first delivery, then two operators' decisions. */
const correctedTwice: StoredItem = {
  reference: 'ref-1',
  record: 'transaction',
  amount: number('1500'),
  currency: 'EUR',
  hash: 'c'.repeat(64),
  fingerprint: 'f3'.repeat(32),
  receivedAt: '2026-11-28T09:00:00.000Z',
  version: number('3'),
  revision: number('2'),
  lastChange: 'correction',
  correction: {
    version: number('3'),
    settledAt: '2026-11-28T11:00:00.000Z',
    settledBy: 'local:ops-b',
    reason: 'OPS-2: second correction',
    deliveredAt: '2026-11-28T10:30:00.000Z',
  },
  history: [
    {
      version: number('1'),
      transaction: {
        reference: 'ref-1',
        amount: number('1000'),
        currency: 'EUR',
        note: 'first',
        hash: 'a'.repeat(64),
      },
      fingerprint: 'f1'.repeat(32),
      deliveredAt: '2026-11-28T09:00:00.000Z',
      supersededAt: '2026-11-28T10:00:00.000Z',
      supersededBy: 'local:ops-a',
      reason: 'OPS-1: gateway says 1250',
    },
    {
      version: number('2'),
      transaction: { reference: 'ref-1', amount: number('1250'), hash: 'b'.repeat(64) },
      fingerprint: 'f2'.repeat(32),
      deliveredAt: '2026-11-28T09:30:00.000Z',
      supersededAt: '2026-11-28T11:00:00.000Z',
      supersededBy: 'local:ops-b',
      reason: 'OPS-2: second correction',
      correction: {
        version: number('2'),
        settledAt: '2026-11-28T10:00:00.000Z',
        settledBy: 'local:ops-a',
        reason: 'OPS-1: gateway says 1250',
        deliveredAt: '2026-11-28T09:30:00.000Z',
      },
    },
  ],
};

describe('the history of a transaction', () => {
  it('lists every version oldest first: who made each the stored one, when, why, and who replaced it', () => {
    const versions = transactionVersions(correctedTwice);

    expect(versions.map(({ version, current }) => [version, current])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(versions[0]).toMatchObject({
      since: '2026-11-28T09:00:00.000Z',
      by: 'gateway',
      why: 'first delivery',
      superseded: {
        at: '2026-11-28T10:00:00.000Z',
        by: 'local:ops-a',
        reason: 'OPS-1: gateway says 1250',
      },
    });
    expect(versions[1]).toMatchObject({
      since: '2026-11-28T10:00:00.000Z',
      by: 'local:ops-a',
      why: 'accepted the content delivered 2026-11-28T09:30:00.000Z: OPS-1: gateway says 1250',
    });
    expect(versions[2]).toMatchObject({
      fingerprint: 'f3'.repeat(32),
      since: '2026-11-28T11:00:00.000Z',
      by: 'local:ops-b',
    });
    expect(versions[2]?.superseded).toBeUndefined();
  });

  it("the current version's content leaves out the item's own bookkeeping", () => {
    const [, , current] = transactionVersions(correctedTwice);

    expect(Object.keys(current?.transaction ?? {}).sort()).toEqual([
      'amount',
      'currency',
      'hash',
      'reference',
    ]);
  });

  it('each row says what its version changed from the one before, the digest left out', () => {
    const rows = historyRows(transactionVersions(correctedTwice));

    expect(rows.map((row) => row[0])).toEqual(['1', '2', '3 (current)']);
    expect(rows[0]?.[4]).toBe('');
    expect(rows[1]?.[4]).toBe(
      'amount: 1000 → 1250; currency: EUR → (absent); note: first → (absent)',
    );
    expect(rows[2]?.[4]).toBe('amount: 1250 → 1500; currency: (absent) → EUR');
    expect(rows[2]?.[5]).toBe('f3'.repeat(6));
  });

  it('prints a history table for a corrected transaction and nothing for one never corrected', () => {
    const table = historyTable(correctedTwice);
    expect(table).toMatch(/^\nHistory \(3 versions, oldest first\):\n/);
    expect(table).toContain('local:ops-b');

    const { history, correction, version, ...neverCorrected } = correctedTwice;
    expect(historyTable(neverCorrected)).toBe('');
    expect(transactionVersions(neverCorrected)).toEqual([
      expect.objectContaining({ version: 1, current: true, by: 'gateway', why: 'first delivery' }),
    ]);
  });

  it('reads an entry or a correction missing its parts as empty text rather than failing', () => {
    const versions = transactionVersions({
      reference: 'ref-2',
      version: number('2'),
      correction: {},
      history: [{ version: number('1') }],
    });

    expect(versions[0]).toMatchObject({
      version: 1,
      fingerprint: '',
      since: '',
      by: 'gateway',
      superseded: { at: '', by: '', reason: '' },
      transaction: {},
    });
    expect(versions[1]).toMatchObject({
      version: 2,
      fingerprint: '',
      since: '',
      by: '',
      why: 'accepted the content delivered : ',
    });
  });
});
