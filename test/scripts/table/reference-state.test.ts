import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { settleConflict } from '../../../scripts/operations/settle/settle.js';
import {
  conflictsPage,
  listConflicts,
  readReference,
  settlementsOf,
} from '../../../scripts/table/reference-state.js';
import { createTestTable, engines } from '../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { receiverWith } from '../../support/receiver.js';
import { receivingTable } from '../../support/receiving-table.js';

type Item = Record<string, AttributeValue>;

describe.each(engines)('the conflicts kept for references, on %s', (engine) => {
  const { table, deliver, put } = receivingTable(engine);
  /** A stored transaction and `count` conflicting deliveries of it (each another amount). */
  const conflicted = async (count: number) => {
    const stored = transaction({ amount: 1000 });
    expect(await deliver(stored)).toBe(204);
    for (let n = 1; n <= count; n += 1)
      expect(await deliver({ ...stored, amount: 1000 + n })).toBe(409);
    return stored.reference as string;
  };
  const settle = (reference: string, conflict?: string) =>
    settleConflict(table, {
      reference,
      ...(conflict ? { conflict } : {}),
      decision: {
        accept: 'stored',
        actor: 'local:ops-a',
        reason: 'OPS-9: the gateway confirmed the stored amount',
        at: new Date().toISOString(),
      },
    });

  it('an unknown reference has no transaction, version 1, no revision and no conflicts', async () => {
    expect(await readReference(table, 'never-delivered')).toEqual({
      reference: 'never-delivered',
      transaction: undefined,
      version: 1,
      revision: undefined,
      conflicts: [],
    });
  });

  it('lists the open conflicts by reference, oldest first, and the settled ones too when asked for all', async () => {
    const first = await conflicted(2);
    const second = await conflicted(1);
    const [settled] = (await readReference(table, first)).conflicts;
    await settle(first, settled?.id);

    const open = await listConflicts(table, { all: false });
    const all = await listConflicts(table, { all: true });

    const ours = (views: typeof open) =>
      views
        .filter((view) => view.reference === first || view.reference === second)
        .map((view) => [view.reference, view.id, view.settlement?.resolution ?? 'open']);
    const firstIds = (await readReference(table, first)).conflicts.map((conflict) => conflict.id);
    const sorted = [first, second].sort();
    expect(ours(all).map(([reference]) => reference)).toEqual(
      sorted.flatMap((reference) => (reference === first ? [first, first] : [second])),
    );
    expect(ours(all).filter(([reference]) => reference === first)).toEqual([
      [first, firstIds[0], 'stored'],
      [first, firstIds[1], 'open'],
    ]);
    expect(ours(open).filter(([, , state]) => state !== 'open')).toEqual([]);
    expect(ours(open)).toHaveLength(2);
    const [view] = open.filter((candidate) => candidate.reference === second);
    expect(view?.differences.map((difference) => difference.field)).toEqual(['amount']);
  });

  it('a conflict whose transaction is gone, or written without counts, still reads: one delivery, version 1, no differences', async () => {
    const reference = `orphan-${crypto.randomUUID()}`;
    await put({
      reference: { S: `${reference}#conflict#${'e'.repeat(64)}` },
      record: { S: 'conflict' },
      conflictOf: { S: reference },
      receivedAt: { S: '2026-11-28T10:00:00.000Z' },
      transaction: { M: { reference: { S: reference }, amount: { N: '5' } } },
    });

    const state = await readReference(table, reference);

    expect(state.transaction).toBeUndefined();
    expect(state.conflicts).toEqual([
      expect.objectContaining({
        id: '',
        fingerprint: '',
        firstReceivedAt: '2026-11-28T10:00:00.000Z',
        lastReceivedAt: '2026-11-28T10:00:00.000Z',
        deliveries: 1,
        transactionVersion: 1,
        differences: [],
      }),
    ]);
  });

  it('conflicts first delivered in the same millisecond come in the order of their ids, the same on every read', async () => {
    const reference = await conflicted(0);
    const at = '2026-11-28T10:00:00.000Z';
    for (const fingerprint of ['9'.repeat(64), '1'.repeat(64)]) {
      await put({
        reference: { S: `${reference}#conflict#${fingerprint}` },
        record: { S: 'conflict' },
        conflictOf: { S: reference },
        receivedAt: { S: at },
        fingerprint: { S: fingerprint },
        // Written without its content: every stored field reads as a difference.
      });
    }

    const { conflicts } = await readReference(table, reference);

    expect(conflicts.map((conflict) => conflict.id)).toEqual(['1'.repeat(12), '9'.repeat(12)]);
    expect(conflicts[0]?.differences.map((difference) => difference.field)).toContain('amount');
  });

  it('a screen of conflicts pages through the index, each page carrying on where the last stopped', async () => {
    const own = await createTestTable(engine);
    try {
      const ownInvoke = receiverWith(new DynamoDbTransactionStore(own.client, own.tableName));
      const stored = transaction({ amount: 1000 });
      expect((await ownInvoke(callbackEvent(signed(stored)))).statusCode).toBe(204);
      for (const amount of [1001, 1002, 1003]) {
        const status = (await ownInvoke(callbackEvent(signed({ ...stored, amount })))).statusCode;
        expect(status).toBe(409);
      }

      const seen: string[] = [];
      let after: Item | undefined;
      let pages = 0;
      do {
        const page = await conflictsPage(own, { all: true, limit: 2, ...(after ? { after } : {}) });
        seen.push(...page.conflicts.map((conflict) => conflict.id));
        after = page.next;
        pages += 1;
      } while (after !== undefined && pages < 5);

      expect(new Set(seen).size).toBe(3);
      expect(seen).toHaveLength(3);
    } finally {
      await own.drop();
    }
  });

  it('open ones only: a screen stops short after its rounds when settled ones fill the index, and says where to go on', async () => {
    const own = await createTestTable(engine);
    try {
      const ownInvoke = receiverWith(new DynamoDbTransactionStore(own.client, own.tableName));
      const references: string[] = [];
      for (let n = 0; n < 3; n += 1) {
        const stored = transaction({ amount: 1000 });
        expect((await ownInvoke(callbackEvent(signed(stored)))).statusCode).toBe(204);
        const status = (await ownInvoke(callbackEvent(signed({ ...stored, amount: 1 }))))
          .statusCode;
        expect(status).toBe(409);
        references.push(stored.reference as string);
      }
      for (const reference of references) {
        await settleConflict(own, {
          reference,
          decision: {
            accept: 'stored',
            actor: 'local:ops-a',
            reason: 'OPS-9',
            at: new Date().toISOString(),
          },
        });
      }

      const short = await conflictsPage(own, { all: false, limit: 1, maxRounds: 2 });
      expect(short.conflicts).toEqual([]);
      expect(short.next).toBeDefined();

      const rest = await conflictsPage(own, { all: false, limit: 1, after: short.next });
      expect(rest.conflicts).toEqual([]);
      expect(rest.next).toBeUndefined();
    } finally {
      await own.drop();
    }
  });
});

describe('the decisions kept on a transaction', () => {
  it('a decision written without its parts reads as the stored content kept, at version 1, by nobody named', () => {
    const decisions = settlementsOf({
      settlements: { M: { abc: { M: {} }, def: { S: 'not a map' } } },
    });

    const bare = { resolution: 'stored', settledAt: '', settledBy: '', reason: '', version: 1 };
    expect(Object.fromEntries(decisions)).toEqual({ abc: bare, def: bare });
    expect(settlementsOf(undefined).size).toBe(0);
  });
});
