import {
  CreateTableCommand,
  type DynamoDBClient,
  paginateScan,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type FieldDeclarations,
  transactionFields,
} from '../../../lambda/callback/transaction-fields.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { transactionsTableOf } from '../../../lambda/storage/table-definition.js';
import { createTableInput } from '../../../scripts/local/engine/create-table-input.js';
import { startDynalite } from '../../../scripts/local/engine/dynalite.js';
import { localDynamoDbClient } from '../../../scripts/local/engine/local-engine.js';
import { defaultTableName, localData } from '../../../scripts/local/local-data.js';
import { openLocalTable } from '../../../scripts/local/local-table.js';
import { displayValue } from '../../../scripts/table/stored-item.js';
import { timeWindow } from '../../../scripts/table/time-window.js';
import { listByTime, listByUsername } from '../../../scripts/table/transaction-queries.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { dataFolder } from '../../support/local-cli.js';
import { receiverWith } from '../../support/receiver.js';

/**
 * An older declaration, as a folder made before `status` was listed would have it: the same
 * index names, but list indexes that do not project `status`. Local mode's data folder is
 * dynalite's (LevelDB): the engine-level migration is tested on both engines in
 * test/scripts/local/engine/table-migration.test.ts.
 */
const olderFields = {
  ...transactionFields,
  status: { ...transactionFields.status, listed: false },
} as const satisfies FieldDeclarations;

async function scanAll(client: DynamoDBClient, tableName: string) {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan({ client }, { TableName: tableName })) {
    items.push(...(page.Items ?? []));
  }
  const key = (item: Record<string, unknown>) => JSON.stringify(item.reference);
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('a data folder made under an older declaration', () => {
  const folder = dataFolder('local-table-migration-');
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('opens under the new one: its indexes rebuilt, its items as they were, queries answering', async () => {
    // Prepare: the folder as the older version left it, three transactions recorded.
    const data = localData(folder.path);
    if (data.kind !== 'disk') throw new Error('a folder was given');
    const engine = await startDynalite(data.engineDir);
    const client = localDynamoDbClient(engine.endpoint);
    const older = createTableInput(defaultTableName, transactionsTableOf(olderFields));
    await client.send(new CreateTableCommand(older));
    await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: defaultTableName });
    const invoke = receiverWith(new DynamoDbTransactionStore(client, defaultTableName));
    for (let i = 0; i < 3; i++) {
      expect((await invoke(callbackEvent(signed(transaction())))).statusCode).toBe(204);
    }
    const before = await scanAll(client, defaultTableName);
    client.destroy();
    await engine.stop();
    const said = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);

    // Act
    const table = await openLocalTable(data, defaultTableName);
    try {
      const context = { client: table.client, tableName: table.tableName };
      const window = timeWindow(
        new Date(Date.now() - 60_000).toISOString(),
        new Date(Date.now() + 60_000).toISOString(),
      );
      const byTime = await collect(listByTime(context, window, {}));
      const byUser = await collect(listByUsername(context, 'deniz.kaya', {}));
      const after = await scanAll(table.client, table.tableName);

      // Assess
      expect(after).toEqual(before);
      expect(byUser).toHaveLength(3);
      // `status` comes from the rebuilt list index: the old one did not project it.
      expect(byTime.map((item) => displayValue(item.status))).toEqual([
        'Confirm',
        'Confirm',
        'Confirm',
      ]);
      const lines = said.mock.calls.map(([line]) => String(line)).join('');
      expect(lines).toMatch(
        /Table callback-transactions: indexes brought to lambda\/storage\/table-definition\.ts \(deleted byUser, deleted byTime, created byUser, created byTime, by copying the table\)/,
      );
    } finally {
      await table.close();
    }

    // A second opening finds nothing to change.
    said.mockClear();
    const again = await openLocalTable(data, defaultTableName);
    await again.close();
    expect(said.mock.calls.join('')).not.toMatch(/indexes brought/);
  });
});
