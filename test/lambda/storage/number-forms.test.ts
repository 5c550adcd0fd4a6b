import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import Big from 'big.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import type { SerializableValue } from '../../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engines, type TestTable } from '../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { receiverWith } from '../../support/receiver.js';
import { storedItem } from '../../support/stored-items.js';

/** One amount as different serializers write it: every form denotes 10000000. */
const amountForms = ['10000000', '1.0E7', '1e+7', '1E7', '10000000.00', '100000000e-1'];
/** One id likewise: 42. */
const idForms = ['42', '4.2e1', '42.0', '4200E-2', '0.42e+2'];

describe.each(engines)('number forms on %s', (engine) => {
  let table: TestTable;
  let client: DynamoDBClient;
  let invoke: ReturnType<typeof receiverWith>;

  beforeAll(async () => {
    table = await createTestTable(engine);
    client = table.client;
    invoke = receiverWith(new DynamoDbTransactionStore(client, table.tableName));
  });
  afterAll(() => table.drop());

  const send = async (fields: Record<string, SerializableValue>) => {
    const response = await invoke(callbackEvent(signed(fields)));
    return `${response.statusCode} ${response.headers?.['x-callback-outcome'] ?? ''}`.trim();
  };
  const stored = (reference: string) => storedItem(table, { reference });

  it.each(amountForms)(
    'records the amount %s once as 10000000, keeping the sender text in the raw body',
    async (form) => {
      const fields = transaction({ amount: new JsonNumber(form) });
      expect(await send(fields)).toBe('204 recorded');
      const item = await stored(fields.reference as string);
      expect(item?.amount?.N).toBe('10000000');
      expect(item?.rawBody?.S).toContain(`"amount":${form},`);
    },
  );

  it.each(idForms)('records the id %s as 42', async (form) => {
    const fields = transaction({ id: new JsonNumber(form) });
    expect(await send(fields)).toBe('204 recorded');
    expect((await stored(fields.reference as string))?.id?.N).toBe('42');
  });

  it('answers every redelivery in another form of the same numbers 204 duplicate', async () => {
    const same = transaction({ id: 42, amount: new JsonNumber('1.0E7') });
    const sameAnswers = [await send(same)];
    for (const [i, amount] of amountForms.entries()) {
      const id = new JsonNumber(idForms[i % idForms.length] as string);
      sameAnswers.push(await send({ ...same, amount: new JsonNumber(amount), id }));
    }
    expect(sameAnswers).toEqual(['204 recorded', ...amountForms.map(() => '204 duplicate')]);
  });

  it('answers 204 duplicate exactly when the defined fields are equal by value (property)', async () => {
    const amountText = fc
      .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: -3, max: 3 }))
      .map(([digits, exponent]) => `${digits}e${exponent}`);
    const extraValue = fc.oneof(fc.integer(), fc.string({ maxLength: 4 }));
    await fc.assert(
      fc.asyncProperty(
        amountText,
        amountText,
        fc.boolean(),
        extraValue,
        extraValue,
        async (first, second, sameStatus, extraA, extraB) => {
          const fields = transaction({ amount: new JsonNumber(first), attempt: extraA });
          expect(await send(fields)).toBe('204 recorded');
          const redelivery = {
            ...fields,
            amount: new JsonNumber(second),
            status: sameStatus ? 'Confirm' : 'Reject',
            attempt: extraB,
          };
          const equal = new Big(first).eq(new Big(second)) && sameStatus;
          expect(await send(redelivery)).toBe(equal ? '204 duplicate' : '409');
        },
      ),
      { numRuns: 40 },
    );
  });
});
