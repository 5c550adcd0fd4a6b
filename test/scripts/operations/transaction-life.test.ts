import { describe, expect, it } from 'vitest';
import type { Resolution, Settlement } from '../../../lambda/settle/settlement.js';
import {
  type ConflictFacts,
  conflictState,
  isOpen,
  type TransactionState,
  transactionState,
  transitions,
} from '../../../scripts/operations/transaction-life.js';

const decided = (resolution: Resolution): Settlement => ({
  resolution,
  settledAt: '2026-11-28T10:00:00.000Z',
  settledBy: 'local:ops-a',
  reason: 'OPS-1',
  version: 1,
});

/**
 * A small table of what the table holds: the stored fingerprint, the version and the conflicts.
 * Each event changes it the way the receiver and settle do, so the state read off it can be
 * compared with the state the transitions table says the event leads to.
 */
class Facts {
  stored = 'a';
  version = 1;
  conflicts: ConflictFacts[] = [];
  otherContent(fingerprint: string) {
    this.conflicts.push({ fingerprint });
  }
  settle(fingerprint: string, accept: 'received' | 'stored') {
    this.conflicts = this.conflicts.map((conflict) =>
      conflict.fingerprint === fingerprint
        ? { ...conflict, settlement: decided(accept) }
        : conflict,
    );
    if (accept === 'received') {
      this.version += 1;
      this.stored = fingerprint;
    }
  }
  get state(): TransactionState {
    return transactionState(this.version, this.stored, this.conflicts);
  }
}

describe('the life of a transaction', () => {
  it('every event of the diagram leads where the transitions table says, read off the table', () => {
    const facts = new Facts();
    const walk: [keyof typeof transitions, () => void][] = [
      ['callback', () => {}],
      ['otherContent', () => facts.otherContent('b')],
      ['settleStored', () => facts.settle('b', 'stored')],
      ['otherContent', () => facts.otherContent('c')],
      ['settleReceived', () => facts.settle('c', 'received')],
      ['otherContent', () => facts.otherContent('d')],
      ['settleStored', () => facts.settle('d', 'stored')],
    ];
    let previous: TransactionState | undefined;
    for (const [event, happen] of walk) {
      const { from, to } = transitions[event];
      if (previous !== undefined) expect(from as readonly string[]).toContain(previous);
      happen();
      // After a correction, keeping the stored content again leaves it corrected: the version
      // is past the first, which no decision undoes.
      const expected = event === 'settleStored' && facts.version > 1 ? 'corrected' : to;
      expect(facts.state, `after ${event}`).toBe(expected);
      previous = facts.state;
    }
  });

  it('a conflict is open until decided, and never open when it is the stored content', () => {
    expect(conflictState({ fingerprint: 'b' }, 'a')).toBe('open');
    expect(conflictState({ fingerprint: 'a' }, 'a')).toBe('current');
    expect(conflictState({ fingerprint: 'b', settlement: decided('stored') }, 'a')).toBe('stored');
    expect(conflictState({ fingerprint: 'a', settlement: decided('superseded') }, 'b')).toBe(
      'superseded',
    );
    expect(isOpen({ fingerprint: 'b' }, undefined)).toBe(true);
    expect(isOpen({ fingerprint: 'b', settlement: decided('received') }, 'b')).toBe(false);
  });

  it('one open conflict among decided ones keeps the transaction conflicted', () => {
    const conflicts = [{ fingerprint: 'b', settlement: decided('stored') }, { fingerprint: 'c' }];
    expect(transactionState(1, 'a', conflicts)).toBe('conflicted');
    expect(transactionState(1, 'a', conflicts.slice(0, 1))).toBe('settled');
    expect(transactionState(1, 'a', [])).toBe('recorded');
  });
});
