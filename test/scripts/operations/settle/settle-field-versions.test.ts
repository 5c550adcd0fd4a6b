import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FieldDeclarations,
  type TransactionFields,
  text,
  transactionFields,
} from '../../../../lambda/callback/transaction-fields.js';
import type { SerializableValue } from '../../../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import { transactionsTableOf } from '../../../../lambda/storage/table-definition.js';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import type { Decision } from '../../../../scripts/operations/settle/settle-update.js';
import { createTestTable, engines, type TestTable } from '../../../support/engines.js';
import { feeFields } from '../../../support/fee-fields.js';
import { callbackEvent, signed, transaction } from '../../../support/fixtures.js';
import { receiverWith } from '../../../support/receiver.js';

/**
 * A FIXTURE third version: the fee fixture plus a fingerprinted text field, so an item can be
 * stored under each of three declarations and settled under the newest.
 */
const channelFields = {
  ...feeFields,
  channel: text({
    required: false,
    fingerprinted: true,
    since: 3,
    rule: 'optional text: where the customer paid',
  }),
} as const satisfies FieldDeclarations;

/** Every declaration version the fixtures hold, by version. */
const declarations: readonly [number, TransactionFields][] = [
  [1, transactionFields],
  [2, feeFields],
  [3, channelFields],
];

const decision = (accept: Decision['accept']): Decision => ({
  accept,
  actor: 'local:ops-a',
  reason: `ticket OPS-7: gateway says ${accept}`,
  at: new Date().toISOString(),
});

/**
 * Settle keeps the bookkeeping the receiver reads a transaction by: an item stored under any
 * earlier declaration, corrected with a content received under the newest, carries the version
 * that content was fingerprinted under, so the gateway's redelivery of the accepted content is a
 * duplicate and the other content still a conflict, whichever way the conflict was settled.
 */
describe.each(engines)('settle on items of every declaration version, on %s', (engine) => {
  let table: TestTable;
  const store = () => new DynamoDbTransactionStore(table.client, table.tableName);
  beforeAll(async () => {
    table = await createTestTable(engine, transactionsTableOf(channelFields));
  });
  afterAll(() => table?.drop());

  const answer = async (fields: TransactionFields, body: Record<string, SerializableValue>) => {
    const response = await receiverWith(store(), { fields })(callbackEvent(signed(body)));
    return `${response.statusCode} ${response.headers?.['x-callback-outcome'] ?? ''}`.trim();
  };
  const stored = async (reference: string) =>
    (
      await table.client.send(
        new GetItemCommand({
          TableName: table.tableName,
          Key: { reference: { S: reference } },
          ConsistentRead: true,
        }),
      )
    ).Item ?? {};
  const running = channelFields;

  describe.each(declarations)('stored under version %i', (version, storedUnder) => {
    /** Stored under `storedUnder`, then another content delivered under the running declaration. */
    const conflicted = async () => {
      const first = transaction({ amount: 1000, fee: 12, channel: 'web' });
      const second = { ...first, amount: 1250, fee: 15 };
      expect(await answer(storedUnder, first)).toBe('204 recorded');
      expect(await answer(running, second)).toBe('409');
      return { first, second, reference: first.reference as string };
    };

    it('accepting the received content: its redelivery 204, the replaced one 409', async () => {
      const { first, second, reference } = await conflicted();
      await settleConflict(
        { client: table.client, tableName: table.tableName, fields: running },
        { reference, decision: decision('received') },
      );

      const item = await stored(reference);
      expect(item.fieldsVersion).toEqual({ N: '3' });
      expect(item.amount).toEqual({ N: '1250' });
      expect(await answer(running, second)).toBe('204 duplicate');
      expect(await answer(running, first)).toBe('409');
      // The version before keeps the rules it was stored under (absent means 1).
      const history = item.history?.L?.[0]?.M?.transaction?.M ?? {};
      expect(history.fieldsVersion).toEqual(version > 1 ? { N: String(version) } : undefined);
    });

    it('keeping the stored content: its redelivery 204, the received one 409', async () => {
      const { first, second, reference } = await conflicted();
      await settleConflict(
        { client: table.client, tableName: table.tableName, fields: running },
        { reference, decision: decision('stored') },
      );

      const item = await stored(reference);
      expect(item.fieldsVersion).toEqual(version > 1 ? { N: String(version) } : undefined);
      expect(await answer(running, first)).toBe('204 duplicate');
      expect(await answer(running, second)).toBe('409');
    });
  });
});
