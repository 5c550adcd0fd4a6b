import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engineClientConfig, engines } from '../../support/engines.js';
import { type Fault, faultInjectingHandler } from '../../support/fault-injecting-handler.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { receiverWith } from '../../support/receiver.js';
import { storedItem } from '../../support/stored-items.js';

/**
 * Faults a real engine cannot produce on demand, injected below the SDK's retry logic: the SDK
 * retries, backs off and parses errors exactly as it does against AWS.
 */
describe.each(engines)('DynamoDB faults on %s', (engine) => {
  let tableName: string;
  let reader: DynamoDBClient;

  beforeAll(async () => {
    ({ tableName, client: reader } = await createTestTable(engine));
  });

  function receiverWithFaults(plan: (operation: string, count: number) => Fault) {
    const { handler, seen } = faultInjectingHandler(plan);
    const client = new DynamoDBClient({
      ...engineClientConfig(engine),
      // As the function's client: one attempt per call, the store retries within the budget.
      maxAttempts: 1,
      requestHandler: handler,
    });
    return { invoke: receiverWith(new DynamoDbTransactionStore(client, tableName)), seen };
  }

  const stored = (reference: string) => storedItem({ client: reader, tableName }, { reference });

  /** One callback through a receiver whose first PutItem meets `fault`. */
  async function deliverWithFirstPut(fault: Fault) {
    const { invoke, seen } = receiverWithFaults((operation, count) =>
      operation === 'PutItem' && count === 1 ? fault : 'pass',
    );
    const fields = transaction();
    const response = await invoke(callbackEvent(signed(fields)));
    const answer = [response.statusCode, response.headers?.['x-callback-outcome']];
    return { answer, seen, item: await stored(fields.reference as string) };
  }

  it('records the callback when DynamoDB throttles and then accepts the retried write', async () => {
    const { answer, seen, item } = await deliverWithFirstPut('throttle');
    expect(answer).toEqual([204, 'recorded']);
    expect(seen).toEqual(['PutItem', 'PutItem']);
    expect(item).toBeDefined();
  });

  it('answers 503 with Retry-After and stores nothing when DynamoDB keeps failing', async () => {
    const { invoke, seen } = receiverWithFaults(() => 'server-error');
    const fields = transaction();
    const response = await invoke(callbackEvent(signed(fields)));
    expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
    expect(seen).toEqual(['PutItem', 'PutItem', 'PutItem']);
    expect(await stored(fields.reference as string)).toBeUndefined();
  });

  it('answers 503 when throttling outlasts the bounded retries', async () => {
    const { invoke } = receiverWithFaults(() => 'throttle');
    const fields = transaction();
    expect((await invoke(callbackEvent(signed(fields)))).statusCode).toBe(503);
    expect(await stored(fields.reference as string)).toBeUndefined();
  });

  it('answers 204 duplicate when a write landed but its reply was lost and the retry meets the condition', async () => {
    const { answer, seen, item } = await deliverWithFirstPut('land-then-drop');
    expect(answer).toEqual([204, 'duplicate']);
    expect(seen.slice(0, 2)).toEqual(['PutItem', 'PutItem']);
    expect(item?.amount).toEqual({ N: '250075' });
  });

  it('answers 503, not 409, when the conflict cannot be kept for audit', async () => {
    const fields = transaction();
    const { invoke } = receiverWithFaults((operation, count) =>
      operation === 'PutItem' && count >= 2 ? 'server-error' : 'pass',
    );
    await invoke(callbackEvent(signed(fields)));
    const response = await invoke(callbackEvent(signed({ ...fields, amount: 7 })));
    expect(response.statusCode).toBe(503);
  });
});
