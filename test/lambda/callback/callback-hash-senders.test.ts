import { beforeAll, describe, expect, it } from 'vitest';
import { compactJson, escapeNonAscii } from '../../../lambda/callback/callback-hash.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engines, type TestTable } from '../../support/engines.js';
import { callbackEvent, specKey, transaction } from '../../support/fixtures.js';
import { everyEscapeClass, realSenders, sendFrom } from '../../support/real-senders.js';
import { receiverWith } from '../../support/receiver.js';
import { storedItem } from '../../support/stored-items.js';

/**
 * Senders that hash a text escaped one way and send the body escaped another,
 * with the JSON written by real serializers in child processes. Each callback goes through the
 * real handler and store, as the gateway's would.
 */

/** The texts the receiver tried before escape policies: as received or compact, non-ASCII escaped. */
function formerCandidates(body: string, hash: string): string[] {
  const blanked = body.replace(`"${hash}"`, '""');
  return [blanked, compactJson(blanked)].flatMap((text) => [
    text,
    escapeNonAscii(text, 'lower'),
    escapeNonAscii(text, 'upper'),
  ]);
}

describe.each(engines)('senders whose serializer escapes differently, on %s', (engine) => {
  let table: TestTable;
  let invoke: ReturnType<typeof receiverWith>;

  beforeAll(async () => {
    table = await createTestTable(engine);
    invoke = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), {
      hashMode: 'required',
    });
  });

  it.each(realSenders.map((sender) => [sender.name, sender] as const))(
    '%s: recorded and verified, and refused once its text is changed',
    async (_name, sender) => {
      // Prepare: a transaction holding every character whose escape differs between serializers.
      const fields = transaction({ message: everyEscapeClass, username: 'o.brien/eu' });
      const { hashedText, body } = sendFrom(sender, fields, specKey);
      const hash = (JSON.parse(body) as { hash: string }).hash;

      // The sender really hashed another spelling: none of the former candidates is its text.
      expect(formerCandidates(body, hash)).not.toContain(hashedText);

      // Act: the body with one letter changed, then the body as sent.
      const tampered = await invoke(callbackEvent(body.replace('Brien', 'Brian')));
      const response = await invoke(callbackEvent(body));

      // Assess
      expect(tampered.statusCode).toBe(403);
      expect(JSON.parse(tampered.body).type).toMatch(/hash-mismatch$/);
      expect([response.statusCode, response.headers?.['x-callback-outcome']]).toEqual([
        204,
        'recorded',
      ]);
      expect(await storedItem(table, { reference: fields.reference as string })).toMatchObject({
        hashResult: { S: 'verified' },
        message: { S: everyEscapeClass },
        rawBody: { S: body },
      });
    },
  );
});
