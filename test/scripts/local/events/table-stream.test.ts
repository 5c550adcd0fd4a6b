import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DynamoDBClient, QueryCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import { startTableStream } from '../../../../scripts/local/events/table-stream.js';
import { noteChanges } from '../../../../scripts/operations/events/change-notes.js';
import { eventFiles } from '../../../../scripts/operations/events/event-files.js';
import { Outbox } from '../../../../scripts/operations/events/outbox.js';
import { createTestTable, type TestTable } from '../../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../../support/fixtures.js';
import { until } from '../../../support/forwarding.js';
import { receiverWith } from '../../../support/receiver.js';

/**
 * Local mode's stand-in for DynamoDB Streams when the engine fails under it: a failed read is
 * told and read again from the last saved position, so no change is lost; a cursor file it
 * cannot read stops the start with the reason.
 */
describe('the table stream', () => {
  let table: TestTable;
  let folder: string;
  beforeEach(async () => {
    table = await createTestTable('dynalite');
    folder = await mkdtemp(join(tmpdir(), 'table-stream-'));
  });
  afterEach(async () => {
    await table.drop();
    await rm(folder, { recursive: true, force: true });
  });

  const record = async (reference: string) => {
    const invoke = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName));
    const answer = await invoke(callbackEvent(signed(transaction({ reference }))));
    expect(answer.statusCode).toBe(204);
  };

  it('tells a failed read and reads again from where it stood: the change is not lost', async () => {
    const files = eventFiles(folder);
    await mkdir(files.dir, { recursive: true });
    const outbox = await Outbox.open(files);
    let failures = 0;
    const client = new Proxy(table.client, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return ((command: Parameters<DynamoDBClient['send']>[0]) => {
          if (command instanceof QueryCommand && failures > 0) {
            failures -= 1;
            return Promise.reject(new Error('engine unavailable'));
          }
          return target.send(command);
        }) as DynamoDBClient['send'];
      },
    });
    const errors: string[] = [];
    const stream = startTableStream({
      client,
      tableName: table.tableName,
      files,
      outbox,
      pollMs: 20,
      onAppended: () => {},
      onError: (error) => errors.push((error as Error).message),
    });
    await stream.ready;
    // The engine fails the next read, as a hung or restarting one does.
    failures = 1;

    await record('stream-kept-0001');
    await until(() => outbox.entries.length > 0, 'the change in the outbox');
    await stream.stop();

    expect(errors).toEqual(['engine unavailable']);
    expect(outbox.entries.map((entry) => [entry.key, entry.record.eventName])).toEqual([
      ['stream-kept-0001', 'INSERT'],
    ]);
  });

  it("turns a tool's note into a MODIFY only when the item changed, and ignores a missing one", async () => {
    const files = eventFiles(folder);
    await mkdir(files.dir, { recursive: true });
    const outbox = await Outbox.open(files);
    const stream = startTableStream({
      client: table.client,
      tableName: table.tableName,
      files,
      outbox,
      pollMs: 20,
      onAppended: () => {},
      onError: (error) => {
        throw error;
      },
    });
    await stream.ready;
    await record('stream-noted-0001');
    await until(() => outbox.entries.length === 1, 'the insert');
    const notesTaken = async () => (await readdir(files.changes).catch(() => [])).length === 0;

    // Noted but unchanged, and noted but not in the table: nothing to tell.
    await noteChanges(files, ['stream-noted-0001', 'stream-not-there']);
    await until(notesTaken, 'the notes read');
    const afterIdleNotes = outbox.entries.length;
    // Changed in place, as settle does, then noted.
    await table.client.send(
      new UpdateItemCommand({
        TableName: table.tableName,
        Key: { reference: { S: 'stream-noted-0001' } },
        UpdateExpression: 'SET settledNote = :note',
        ExpressionAttributeValues: { ':note': { S: 'checked by an operator' } },
      }),
    );
    await noteChanges(files, ['stream-noted-0001']);
    await until(() => outbox.entries.length === 2, 'the modify');
    await stream.stop();

    expect(afterIdleNotes).toBe(1);
    expect(outbox.entries.map((entry) => [entry.key, entry.record.eventName])).toEqual([
      ['stream-noted-0001', 'INSERT'],
      ['stream-noted-0001', 'MODIFY'],
    ]);
  });

  it('stops its start with the reason when the cursor file cannot be read', async () => {
    const files = eventFiles(folder);
    // A folder where the cursor file belongs: unreadable, and not merely absent.
    await mkdir(files.cursor, { recursive: true });
    const outbox = await Outbox.open(files);

    const stream = startTableStream({
      client: table.client,
      tableName: table.tableName,
      files,
      outbox,
      onAppended: () => {},
      onError: () => {},
    });

    await expect(stream.ready).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
