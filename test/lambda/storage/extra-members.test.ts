import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engines, type TestTable } from '../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { logCapture } from '../../support/log-capture.js';
import { receiverWith } from '../../support/receiver.js';
import { storedItem } from '../../support/stored-items.js';

describe.each(engines)('members the interface does not define, on %s', (engine) => {
  let table: TestTable;
  let client: DynamoDBClient;

  beforeAll(async () => {
    table = await createTestTable(engine);
    client = table.client;
  });
  afterAll(() => table.drop());

  it('answers a redelivery that differs only there 204 duplicate, keeps the first, and logs the names that differ', async () => {
    // Prepare
    const logs = logCapture();
    logs.start();
    const invoke = receiverWith(new DynamoDbTransactionStore(client, table.tableName));
    const fields = transaction({ attempt: 1, sentAt: '2026-11-23T10:00:00Z', fee: 100 });
    const redelivery = { ...fields, attempt: 2, fee: new JsonNumber('1e2'), channel: 'web' };

    // Act
    const answers = [];
    try {
      for (const body of [signed(fields), signed(redelivery)]) {
        const response = await invoke(callbackEvent(body));
        answers.push(`${response.statusCode} ${response.headers?.['x-callback-outcome']}`);
      }
    } finally {
      logs.stop();
    }

    // Assess
    expect(answers).toEqual(['204 recorded', '204 duplicate']);
    const stored = await storedItem(table, { reference: fields.reference as string });
    expect(stored?.extra?.S).toBe('{"attempt":1,"sentAt":"2026-11-23T10:00:00Z","fee":100}');
    const duplicateLine = logs
      .lines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.outcome === 'Duplicate' && line.reference === fields.reference);
    // `fee` is 100 both times (written 1e2 by value), so only attempt and channel differ.
    expect(duplicateLine?.differingMembers).toEqual(['attempt', 'channel']);
  });
});
