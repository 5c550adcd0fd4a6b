import { type AttributeValue, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import type { SerializableValue } from '../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, type Engine, type TestTable } from './engines.js';
import { callbackEvent, signed } from './fixtures.js';
import { receiverWith } from './receiver.js';
import { storedItem } from './stored-items.js';

type Item = Record<string, AttributeValue>;

/**
 * A table of the file's own on `engine` (made in its `beforeAll`, dropped in its `afterAll`) with
 * the real receiver recording into it: what settle and the conflict readers work on. `table`
 * stands for the table from the first test on, as `sharedChromium` does for the browser.
 */
export function receivingTable(engine: Engine) {
  let made: TestTable | undefined;
  let invoke: ReturnType<typeof receiverWith>;
  beforeAll(async () => {
    made = await createTestTable(engine);
    invoke = receiverWith(new DynamoDbTransactionStore(made.client, made.tableName));
  });
  afterAll(() => made?.drop());
  const current = (): TestTable => {
    if (made === undefined) throw new Error('the table is made in beforeAll: use it in tests');
    return made;
  };
  const table: TestTable = {
    get client() {
      return current().client;
    },
    get tableName() {
      return current().tableName;
    },
    drop: () => current().drop(),
  };
  return {
    table,
    /** Sends `fields`, signed, through the receiver (with `headers`, when given); its status. */
    deliver: async (fields: Record<string, SerializableValue>, headers?: Record<string, string>) =>
      (await invoke(callbackEvent(signed(fields), headers ? { headers } : {}))).statusCode,
    /** The transaction under `reference`, read strongly consistent; `{}` when there is none. */
    item: async (reference: string): Promise<Item> =>
      (await storedItem(table, { reference })) ?? {},
    /** Writes `value` as it is, past the receiver: an item only a hand could have written. */
    put: (value: Item) =>
      table.client.send(new PutItemCommand({ TableName: table.tableName, Item: value })),
  };
}
