import {
  type AttributeValue,
  DeleteItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import type { Decision } from '../../../../scripts/operations/settle/settle-update.js';
import { readReference } from '../../../../scripts/table/reference-state.js';
import type { QueryContext } from '../../../../scripts/table/transaction-queries.js';
import { engines } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { receivingTable } from '../../../support/receiving-table.js';

type Item = Record<string, AttributeValue>;

const decision = (accept: Decision['accept'], actor = 'local:ops-a'): Decision => ({
  accept,
  actor,
  reason: `OPS-7: ${actor} decided ${accept}`,
  at: '2026-11-28T12:00:00.000Z',
});

describe.each(engines)('what settle refuses and says, on %s', (engine) => {
  const { table, deliver, item, put } = receivingTable(engine);
  /** A stored transaction and a conflicting delivery for each of `amounts`. */
  const conflicted = async (...amounts: number[]) => {
    const stored = transaction({ amount: 1000 });
    expect(await deliver(stored)).toBe(204);
    for (const amount of amounts) expect(await deliver({ ...stored, amount })).toBe(409);
    return stored.reference as string;
  };
  /** A conflict item kept for `reference` with the given fingerprint and content. */
  const keepConflict = (reference: string, fingerprint: string, content: Item) =>
    put({
      reference: { S: `${reference}#conflict#${fingerprint}` },
      record: { S: 'conflict' },
      conflictOf: { S: reference },
      receivedAt: { S: '2026-11-28T11:00:00.000Z' },
      fingerprint: { S: fingerprint },
      transaction: { M: content },
    });
  /**
   * The table as settle sees it, except that `meanwhile` runs once between its read and its
   * write: another operator (or the receiver) writing first.
   */
  const racedBy = (meanwhile: () => Promise<unknown>): QueryContext => {
    let raced = false;
    const client = new Proxy(table.client, {
      get(target, name, receiver) {
        if (name !== 'send') return Reflect.get(target, name, receiver);
        return async (command: unknown) => {
          if (command instanceof UpdateItemCommand && !raced) {
            raced = true;
            await meanwhile();
          }
          return target.send(command as never);
        };
      },
    });
    return { client, tableName: table.tableName };
  };

  it('names a --conflict that matches none, and one that matches several', async () => {
    const reference = await conflicted();
    const content = { reference: { S: reference }, amount: { N: '7' } };
    await keepConflict(reference, `ab1${'0'.repeat(61)}`, content);
    await keepConflict(reference, `ab2${'0'.repeat(61)}`, content);

    await expect(
      settleConflict(table, { reference, conflict: 'ffff', decision: decision('stored') }),
    ).rejects.toThrow(`no conflict ffff for reference "${reference}"`);
    await expect(
      settleConflict(table, { reference, conflict: 'AB', decision: decision('stored') }),
    ).rejects.toThrow('2 conflicts start with AB: give more digits');
  });

  it('lists the open conflicts to pick from, one with the stored content differing in nothing', async () => {
    const reference = await conflicted(1);
    const stored = await item(reference);
    const { reference: _key, ...content } = stored;
    await keepConflict(reference, '0'.repeat(64), { reference: { S: reference }, ...content });

    await expect(
      settleConflict(table, { reference, decision: decision('stored') }),
    ).rejects.toThrow(/has 2 open conflicts.*: 000000000000 \(first [^)]*, differs in nothing\)/);
  });

  it('refuses a named conflict that is already settled, or whose content is the stored one, saying which', async () => {
    const reference = await conflicted(1);
    const [settled] = (await readReference(table, reference)).conflicts;
    await settleConflict(table, { reference, decision: decision('stored') });
    const fingerprint = (await item(reference)).fingerprint?.S as string;
    await keepConflict(reference, fingerprint, { reference: { S: reference } });

    await expect(
      settleConflict(table, { reference, conflict: settled?.id, decision: decision('received') }),
    ).rejects.toThrow(
      `no open conflict ${settled?.id} for reference "${reference}": settled stored by local:ops-a at 2026-11-28T12:00:00.000Z ("OPS-7: local:ops-a decided stored")`,
    );
    await expect(
      settleConflict(table, {
        reference,
        conflict: fingerprint.slice(0, 12),
        decision: decision('received'),
      }),
    ).rejects.toThrow(/: its content is the stored one$/);
  });

  it('a reference that never had a conflict has none open, and says no more', async () => {
    const reference = await conflicted();

    await expect(
      settleConflict(table, { reference, decision: decision('stored') }),
    ).rejects.toThrow(new RegExp(`^no open conflict for reference "${reference}"$`));
  });

  it('a stale --expect-version names who corrected it, even from a correction missing its parts', async () => {
    const reference = await conflicted(1);
    await table.client.send(
      new UpdateItemCommand({
        TableName: table.tableName,
        Key: { reference: { S: reference } },
        UpdateExpression: 'SET version = :two, correction = :bare',
        ExpressionAttributeValues: { ':two': { N: '2' }, ':bare': { M: {} } },
      }),
    );

    await expect(
      settleConflict(table, { reference, expectVersion: 1, decision: decision('stored') }),
    ).rejects.toThrow('it is at version 2, not 1: version 2 was corrected by ? at ? ("")');
  });

  it('another operator settling another conflict between the read and the write: refused, and told which', async () => {
    const reference = await conflicted(1, 2);
    const [first, second] = (await readReference(table, reference)).conflicts;

    const raced = racedBy(() =>
      settleConflict(table, {
        reference,
        conflict: second?.id,
        decision: decision('stored', 'local:ops-b'),
      }),
    );

    await expect(
      settleConflict(raced, { reference, conflict: first?.id, decision: decision('stored') }),
    ).rejects.toThrow(
      `the transaction changed since it was read: conflict ${second?.id} was settled stored by local:ops-b at 2026-11-28T12:00:00.000Z ("OPS-7: local:ops-b decided stored")`,
    );
    expect((await readReference(table, reference)).conflicts[0]?.settlement).toBeUndefined();
  });

  it('another operator correcting it between the read and the write: refused with the new version and who made it', async () => {
    const reference = await conflicted(1, 2);
    const [first, second] = (await readReference(table, reference)).conflicts;

    const raced = racedBy(() =>
      settleConflict(table, {
        reference,
        conflict: second?.id,
        decision: decision('received', 'local:ops-b'),
      }),
    );

    await expect(
      settleConflict(raced, { reference, conflict: first?.id, decision: decision('stored') }),
    ).rejects.toThrow(
      'the transaction changed since it was read: version 1 became 2, corrected by local:ops-b at 2026-11-28T12:00:00.000Z ("OPS-7: local:ops-b decided received")',
    );
  });

  it('the transaction deleted, or rewritten by hand, between the read and the write: refused, and said so', async () => {
    const gone = await conflicted(1);
    const deleted = racedBy(() =>
      table.client.send(
        new DeleteItemCommand({ TableName: table.tableName, Key: { reference: { S: gone } } }),
      ),
    );
    await expect(
      settleConflict(deleted, { reference: gone, decision: decision('stored') }),
    ).rejects.toThrow('the transaction changed since it was read: the transaction is gone');

    const rewritten = await conflicted(1);
    const bumped = racedBy(() =>
      table.client.send(
        new UpdateItemCommand({
          TableName: table.tableName,
          Key: { reference: { S: rewritten } },
          UpdateExpression: 'SET revision = :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
        }),
      ),
    );
    await expect(
      settleConflict(bumped, { reference: rewritten, decision: decision('stored') }),
    ).rejects.toThrow(
      'it was written by someone else; read it again (npx callback-receiver query get)',
    );

    const versioned = await conflicted(1);
    const byHand = racedBy(() =>
      table.client.send(
        new UpdateItemCommand({
          TableName: table.tableName,
          Key: { reference: { S: versioned } },
          UpdateExpression: 'SET version = :two, revision = :one',
          ExpressionAttributeValues: { ':two': { N: '2' }, ':one': { N: '1' } },
        }),
      ),
    );
    await expect(
      settleConflict(byHand, { reference: versioned, decision: decision('stored') }),
    ).rejects.toThrow('version 1 became 2, corrected by ? at ? ("")');
  });

  it('a write that fails for any other reason is not taken for a race: the error itself comes out', async () => {
    const reference = await conflicted(1);
    const failing: QueryContext = {
      tableName: table.tableName,
      client: new Proxy(table.client, {
        get(target, name, receiver) {
          if (name !== 'send') return Reflect.get(target, name, receiver);
          return (command: unknown) =>
            command instanceof UpdateItemCommand
              ? Promise.reject(new Error('socket hang up'))
              : target.send(command as never);
        },
      }),
    };

    await expect(
      settleConflict(failing, { reference, decision: decision('stored') }),
    ).rejects.toThrow(/^socket hang up$/);
  });
});
