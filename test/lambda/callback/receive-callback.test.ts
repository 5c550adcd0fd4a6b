import { describe, expect, it } from 'vitest';
import { acceptedKey } from '../../../lambda/auth/accepted-keys.js';
import {
  ConflictError,
  HashMismatchError,
  HashMissingError,
  MalformedJsonError,
  StoreUnavailableError,
  ValidationError,
} from '../../../lambda/callback/errors.js';
import { receiveCallback } from '../../../lambda/callback/receive-callback.js';
import type { HashMode } from '../../../lambda/config/config.js';
import { stringifyJson } from '../../../lambda/json/json-text.js';
import type { TransactionStore } from '../../../lambda/storage/transaction-store.js';
import { signed, specKey, transaction } from '../../support/fixtures.js';
import { MemoryTransactionStore } from '../../support/memory-transaction-store.js';

function setup(hashMode: HashMode = 'if-present', store = new MemoryTransactionStore()) {
  const receive = receiveCallback({ store, hashMode });
  const deliver = (rawBody: string, key = specKey) =>
    receive({
      rawBody,
      key: acceptedKey(key),
      requestId: 'req-1',
      sourceIp: '203.0.113.7',
      receivedAt: new Date('2026-11-22T10:00:00.000Z'),
    });
  return { store, deliver };
}

describe('receiveCallback', () => {
  it('records a new transaction with every delivery detail', async () => {
    const { store, deliver } = setup();
    const fields = transaction();
    await expect(deliver(signed(fields))).resolves.toMatchObject({
      outcome: 'Recorded',
      hashResult: 'verified',
    });
    expect(store.records.get(fields.reference as string)).toMatchObject({
      receivedAt: '2026-11-22T10:00:00.000Z',
      hashResult: 'verified',
      keyId: acceptedKey(specKey).id,
      requestId: 'req-1',
      sourceIp: '203.0.113.7',
    });
  });

  it('answers the same content again as a duplicate, even written differently', async () => {
    const { deliver } = setup();
    const fields = transaction();
    await deliver(signed(fields, specKey, { wire: 'escaped' }));
    await expect(deliver(signed(fields, specKey, { wire: 'utf8' }))).resolves.toMatchObject({
      outcome: 'Duplicate',
    });
  });

  it('refuses other content under a recorded reference and keeps it for audit, once', async () => {
    const { store, deliver } = setup();
    const fields = transaction();
    await deliver(signed(fields));
    const conflicting = signed({ ...fields, amount: 1 });
    await expect(deliver(conflicting)).rejects.toThrow(ConflictError);
    await expect(deliver(conflicting)).rejects.toThrow(ConflictError);
    expect(store.conflicts.size).toBe(1);
    expect(store.records.get(fields.reference as string)?.transaction.amount).toBe('250075');
  });

  it('records an absent or empty hash as unverified when the mode is if-present', async () => {
    const { deliver } = setup('if-present');
    await expect(deliver(stringifyJson(transaction()))).resolves.toMatchObject({
      hashResult: 'unverified',
    });
    await expect(deliver(stringifyJson(transaction({ hash: '' })))).resolves.toMatchObject({
      hashResult: 'unverified',
    });
  });

  it('refuses an absent or empty hash as missing, not wrong, when the mode is required', async () => {
    const { deliver } = setup('required');
    await expect(deliver(stringifyJson(transaction()))).rejects.toThrow(HashMissingError);
    await expect(deliver(stringifyJson(transaction({ hash: '' })))).rejects.toThrow(
      HashMissingError,
    );
  });

  it('does not check the hash at all when the mode is off', async () => {
    const { deliver } = setup('off');
    await expect(deliver(signed(transaction(), 'another-key'))).resolves.toMatchObject({
      hashResult: 'not-checked',
    });
  });

  it('refuses a hash salted with another key', async () => {
    const { store, deliver } = setup();
    await expect(deliver(signed(transaction(), 'another-key'))).rejects.toThrow(HashMismatchError);
    expect(store.records.size).toBe(0);
  });

  it('checks the hash before the schema, so an unsigned sender learns nothing of it', async () => {
    const { deliver } = setup();
    await expect(deliver('{"hash":"00"}')).rejects.toThrow(HashMismatchError);
  });

  it('refuses malformed JSON and a byte order mark', async () => {
    const { deliver } = setup();
    await expect(deliver('{"id":')).rejects.toThrow(MalformedJsonError);
    await expect(deliver(`\uFEFF${stringifyJson(transaction())}`)).rejects.toThrow(
      MalformedJsonError,
    );
  });

  it('refuses an invalid transaction naming the fields', async () => {
    const { deliver } = setup();
    await expect(deliver(stringifyJson(transaction({ currency: 'lira' })))).rejects.toThrow(
      ValidationError,
    );
  });

  it('passes a store failure on as unavailable, tagged with the reference for the log', async () => {
    const failing: TransactionStore = {
      putIfAbsent: async () => {
        throw new StoreUnavailableError();
      },
      keepConflict: async () => {},
    };
    const { deliver } = setup('if-present', failing as MemoryTransactionStore);
    const fields = transaction();
    await expect(deliver(signed(fields))).rejects.toMatchObject({
      status: 503,
      reference: fields.reference,
    });
  });

  it('refuses content an operator already settled as a quiet conflict, kept without an event', async () => {
    const kept: boolean[] = [];
    const settled: TransactionStore = {
      putIfAbsent: async () => ({ kind: 'exists', fingerprint: 'f'.repeat(64), settled: true }),
      keepConflict: async (_record, _budget, quiet) => {
        kept.push(quiet === true);
      },
    };
    const { deliver } = setup('if-present', settled as MemoryTransactionStore);

    const refusal = await deliver(signed(transaction())).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(ConflictError);
    expect(refusal).toMatchObject({ status: 409, outcome: 'SettledConflict' });
    expect(kept).toEqual([true]);
  });

  it('refuses unsettled conflicting content as a Conflict, the outcome the alarm watches', async () => {
    const { deliver } = setup();
    const fields = transaction();
    await deliver(signed(fields));

    const refusal = await deliver(signed({ ...fields, amount: 1 })).catch(
      (error: unknown) => error,
    );

    expect(refusal).toMatchObject({ status: 409, outcome: 'Conflict' });
  });
});
