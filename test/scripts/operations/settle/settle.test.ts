import { describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import {
  maxReasonLength,
  SettleRefusedError,
  settleConflict,
} from '../../../../scripts/operations/settle/settle.js';
import type { Decision } from '../../../../scripts/operations/settle/settle-update.js';
import { readReference } from '../../../../scripts/table/reference-state.js';
import { engines } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { receivingTable } from '../../../support/receiving-table.js';
import { recordOf } from '../../../support/stream-records.js';

const decision = (accept: Decision['accept'], actor = 'local:ops-a'): Decision => ({
  accept,
  actor,
  reason: `ticket OPS-1: gateway says ${accept}`,
  at: new Date().toISOString(),
});

describe.each(engines)('settling a conflict on %s', (engine) => {
  const { table, deliver, item } = receivingTable(engine);
  /** A stored transaction and one conflicting delivery of it (amount and an extra member). */
  const conflicted = async () => {
    const stored = transaction({ amount: 1000 });
    const received = { ...stored, amount: 1250, note: 'corrected by the gateway' };
    expect(await deliver(stored)).toBe(204);
    expect(await deliver(received)).toBe(409);
    return { stored, received, reference: stored.reference as string };
  };

  it('accepting the received content corrects the transaction and keeps the version before', async () => {
    const { stored, received, reference } = await conflicted();

    const result = await settleConflict(table, { reference, decision: decision('received') });

    expect(result.version).toBe(2);
    const after = await item(reference);
    expect(after.amount).toEqual({ N: '1250' });
    expect(after.extra).toEqual({ S: '{"note":"corrected by the gateway"}' });
    expect(after.version).toEqual({ N: '2' });
    expect(after.lastChange).toEqual({ S: 'correction' });
    expect(after.correction?.M?.settledBy).toEqual({ S: 'local:ops-a' });
    const [previous] = after.history?.L ?? [];
    expect(previous?.M?.version).toEqual({ N: '1' });
    expect(previous?.M?.transaction?.M?.amount).toEqual({ N: '1000' });
    expect(previous?.M?.supersededBy).toEqual({ S: 'local:ops-a' });
    expect(previous?.M?.reason?.S).toMatch(/OPS-1/);
    // From now on: the received content is a duplicate, the old one a conflict.
    expect(await deliver(received)).toBe(204);
    expect(await deliver(stored)).toBe(409);
    // The replaced content was settled by the same decision: kept and counted, but no event.
    const replaced = (await readReference(table, reference)).conflicts.find(
      (conflict) => conflict.settlement?.resolution === 'superseded',
    );
    expect(replaced?.item.afterSettlement).toEqual({ BOOL: true });
    expect(replaced?.differences.map((difference) => difference.field)).toEqual([
      'amount',
      'extra.note',
    ]);
    // An operator who reviewed version 1 is told it changed, and by whom.
    await expect(
      settleConflict(table, { reference, expectVersion: 1, decision: decision('stored') }),
    ).rejects.toThrow(
      /at version 2, not 1: version 2 was corrected by local:ops-a at .* \("ticket OPS-1/,
    );
  });

  it("a correction carries the accepted delivery's headers, or none, and keeps the old ones in history", async () => {
    const first = { 'X-Origin': 'first delivery' };
    const stored = transaction({ amount: 1000 });
    expect(await deliver(stored, first)).toBe(204);
    const received = { ...stored, amount: 1250 };
    const second = { 'X-Origin': 'conflicting delivery' };
    expect(await deliver(received, second)).toBe(409);
    const reference = stored.reference as string;

    await settleConflict(table, { reference, decision: decision('received') });

    const after = await item(reference);
    expect(JSON.parse(after.headers?.S ?? '{}')).toMatchObject(second);
    expect(JSON.parse(after.history?.L?.[0]?.M?.headers?.S ?? '{}')).toMatchObject(first);

    // A conflict kept before headers were kept has none: the correction leaves none behind.
    const store = new DynamoDbTransactionStore(table.client, table.tableName);
    await store.keepConflict(recordOf({ ...received, amount: 1500 }, { headers: undefined }));
    await settleConflict(table, {
      reference,
      conflict: (await readReference(table, reference)).conflicts.find(
        (conflict) => conflict.settlement === undefined,
      )?.id,
      decision: decision('received'),
    });
    const latest = await item(reference);
    expect(latest.amount).toEqual({ N: '1500' });
    expect(latest.headers).toBeUndefined();
  });

  it('keeping the stored content closes the conflict; its redeliveries stay 409 and are counted on it', async () => {
    const { received, reference } = await conflicted();

    await settleConflict(table, { reference, decision: decision('stored') });

    const settled = await item(reference);
    expect(settled.amount).toEqual({ N: '1000' });
    expect(settled.version).toBeUndefined();
    expect(settled.lastChange).toEqual({ S: 'settlement' });
    expect(await deliver(received)).toBe(409);
    expect(await deliver(received)).toBe(409);
    const state = await readReference(table, reference);
    expect(state.conflicts).toHaveLength(1);
    expect(state.conflicts[0]?.settlement?.resolution).toBe('stored');
    expect(state.conflicts[0]?.deliveries).toBe(3);
  });

  it('of two operators settling one conflict at once, exactly one wins and the other is told what changed', async () => {
    const { reference } = await conflicted();

    const outcomes = await Promise.allSettled([
      settleConflict(table, { reference, decision: decision('received', 'local:ops-a') }),
      settleConflict(table, { reference, decision: decision('stored', 'local:ops-b') }),
    ]);

    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect([won.length, lost.length]).toEqual([1, 1]);
    const reason = (lost[0] as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(SettleRefusedError);
    expect(reason.message).toMatch(/changed since|no open conflict/);
    const state = await readReference(table, reference);
    expect(state.conflicts[0]?.settlement).toBeDefined();
  });

  it('a settle racing a redelivery of the received content: the settle holds, the redelivery is 409 or 204, never lost', async () => {
    const { received, reference } = await conflicted();

    const [settled, status] = await Promise.all([
      settleConflict(table, { reference, decision: decision('received') }),
      deliver(received),
    ]);

    expect(settled.version).toBe(2);
    expect([204, 409]).toContain(status);
    expect(await deliver(received)).toBe(204);
    const state = await readReference(table, reference);
    expect(state.conflicts[0]?.deliveries).toBe(status === 409 ? 2 : 1);
  });

  it('refuses an unknown reference, no open conflict, a missing reason and a stale version', async () => {
    const { reference } = await conflicted();
    const refused = (promise: Promise<unknown>) =>
      expect(promise).rejects.toThrow(SettleRefusedError);

    await refused(
      settleConflict(table, { reference: 'no-such-ref', decision: decision('stored') }),
    );
    await refused(
      settleConflict(table, { reference, decision: { ...decision('stored'), reason: ' ' } }),
    );
    await refused(
      settleConflict(table, { reference, expectVersion: 2, decision: decision('stored') }),
    );
    await expect(
      settleConflict(table, {
        reference,
        decision: { ...decision('stored'), reason: 'x'.repeat(maxReasonLength + 1) },
      }),
    ).rejects.toThrow(/longer than 1000 characters/);
    await settleConflict(table, { reference, decision: decision('stored') });
    await expect(
      settleConflict(table, { reference, decision: decision('received') }),
    ).rejects.toThrow(/no open conflict/);
  });

  it('asks which conflict when a reference has several, and settles the one named', async () => {
    const stored = transaction({ amount: 1000 });
    const reference = stored.reference as string;
    expect(await deliver(stored)).toBe(204);
    expect(await deliver({ ...stored, amount: 1 })).toBe(409);
    expect(await deliver({ ...stored, status: 'Reject' })).toBe(409);

    const ambiguous = settleConflict(table, { reference, decision: decision('stored') });
    await expect(ambiguous).rejects.toThrow(/2 open conflicts, pick one with --conflict/);

    const state = await readReference(table, reference);
    const rejectOne = state.conflicts.find((conflict) =>
      conflict.differences.some((difference) => difference.field === 'status'),
    );
    await settleConflict(table, {
      reference,
      conflict: rejectOne?.id as string,
      decision: decision('received'),
    });
    expect((await item(reference)).status).toEqual({ S: 'Reject' });
  });
});
