import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engines, type TestTable } from '../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { logCapture } from '../../support/log-capture.js';
import { receiverWith } from '../../support/receiver.js';
import { storedItem } from '../../support/stored-items.js';

/** C1 CSI and a right-to-left override: both pass the reference rules (no C0 controls). */
const hostile = 'ref-\u009b2J\u202etxt.exe';

describe('log lines of a callback whose strings would drive a terminal', () => {
  const engine = engines[0] as (typeof engines)[number];
  let table: TestTable;
  beforeAll(async () => {
    table = await createTestTable(engine);
  });
  afterAll(() => table?.drop());

  it('show C1 and bidi controls of the reference and extra member names as \\u text; storage keeps them', async () => {
    // Prepare
    const logs = logCapture();
    logs.start();
    const invoke = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName));
    const fields = transaction({ reference: hostile, 'note\u2066': 1 });
    const redelivery = { ...fields, 'note\u2066': 2 };

    // Act
    try {
      for (const body of [signed(fields), signed(redelivery)]) await invoke(callbackEvent(body));
    } finally {
      logs.stop();
    }

    // Assess
    const lines = logs.lines().filter((line) => line.includes('callback accepted'));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/u);
      expect(JSON.parse(line).reference).toBe('ref-\\u009b2J\\u202etxt.exe');
    }
    expect(JSON.parse(lines[1] as string).differingMembers).toEqual(['note\\u2066']);
    const stored = await storedItem(table, { reference: hostile });
    expect(stored?.reference?.S).toBe(hostile);
  });
});
