import { BatchWriteItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsByKey, maxKeysPerRequest } from '../../../scripts/table/items-by-key.js';
import { createTestTable, engines, type TestTable } from '../../support/engines.js';
import { recordRequests } from '../../support/request-counter.js';

/** The one reader by key behind every lookup: batches, asks each key once, projects. */
describe.each(engines)('items by key, on %s', (engine) => {
  let table: TestTable;
  const references = Array.from({ length: 250 }, (_, i) => `by-key-${String(i).padStart(3, '0')}`);
  beforeAll(async () => {
    table = await createTestTable(engine);
    for (let start = 0; start < references.length; start += 25) {
      await table.client.send(
        new BatchWriteItemCommand({
          RequestItems: {
            [table.tableName]: references.slice(start, start + 25).map((reference) => ({
              PutRequest: {
                Item: { reference: { S: reference }, record: { S: 'x' }, rawBody: { S: 'body' } },
              },
            })),
          },
        }),
      );
    }
  });
  afterAll(() => table?.drop());

  it('reads 250 keys a hundred a request, each once, leaving out keys that hold nothing', async () => {
    const recorder = recordRequests(table.client);
    const asked = [...references, references[0] as string, 'by-key-none'];
    const items = await itemsByKey(table, 'reference', asked, { consistent: true });
    expect(items.map((item) => item.reference?.S).sort()).toEqual(references);
    recorder.stop();
    // 251 distinct keys (the repeat asked once): three requests, none re-asked on these engines.
    const batches = recorder.requests().filter((name) => name === 'BatchGetItem');
    expect(batches).toHaveLength(Math.ceil(251 / maxKeysPerRequest));
  });

  it('reads only the projected attributes', async () => {
    const [item] = await itemsByKey(table, 'reference', [references[1] as string], {
      projection: ['reference', 'record'],
    });
    expect(item).toEqual({ reference: { S: references[1] }, record: { S: 'x' } });
  });
});
