import { describe, expect, it } from 'vitest';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import type { Decision } from '../../../../scripts/operations/settle/settle-update.js';
import { engines } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { receivingTable } from '../../../support/receiving-table.js';

const accept: Decision = {
  accept: 'received',
  actor: 'local:ops-a',
  reason: 'OPS-3: the gateway resent it',
  at: '2026-11-28T12:00:00.000Z',
};
/** Past what DynamoDB can index (2048 bytes): the item keeps it, the user index cannot. */
const unindexable = 'u'.repeat(2049);

describe.each(engines)('what accepting a received content writes, on %s', (engine) => {
  const { table, deliver, item, put } = receivingTable(engine);

  it('a username too long to index takes the corrected transaction out of the user index', async () => {
    const stored = transaction({ username: 'deniz.kaya' });
    expect(await deliver(stored)).toBe(204);
    expect(await deliver({ ...stored, username: unindexable })).toBe(409);
    const reference = stored.reference as string;
    expect((await item(reference)).usernameKey).toEqual({ S: 'deniz.kaya' });

    await settleConflict(table, { reference, decision: accept });

    const corrected = await item(reference);
    expect(corrected.username).toEqual({ S: unindexable });
    expect(corrected.usernameKey).toBeUndefined();
  });

  it('from one unindexable username to another, the correction still holds and indexes neither', async () => {
    const stored = transaction({ username: unindexable });
    expect(await deliver(stored)).toBe(204);
    expect(await deliver({ ...stored, username: `${unindexable}v`, amount: 1 })).toBe(409);
    const reference = stored.reference as string;

    const result = await settleConflict(table, { reference, decision: accept });

    expect(result.version).toBe(2);
    const corrected = await item(reference);
    expect(corrected.amount).toEqual({ N: '1' });
    expect(corrected.usernameKey).toBeUndefined();
  });

  it('a transaction written without a time, and a conflict kept without its content: the version before is kept with an empty delivery time', async () => {
    const reference = `by-hand-${crypto.randomUUID()}`;
    await put({
      reference: { S: reference },
      record: { S: 'transaction' },
      fingerprint: { S: 'a'.repeat(64) },
      amount: { N: '5' },
    });
    await put({
      reference: { S: `${reference}#conflict#${'b'.repeat(64)}` },
      record: { S: 'conflict' },
      conflictOf: { S: reference },
      receivedAt: { S: '2026-11-28T11:00:00.000Z' },
      fingerprint: { S: 'b'.repeat(64) },
    });

    await settleConflict(table, { reference, decision: accept });

    const corrected = await item(reference);
    expect(corrected.amount).toBeUndefined();
    expect(corrected.version).toEqual({ N: '2' });
    const [previous] = corrected.history?.L ?? [];
    expect(previous?.M?.deliveredAt).toEqual({ S: '' });
    expect(previous?.M?.transaction?.M?.amount).toEqual({ N: '5' });
  });
});
