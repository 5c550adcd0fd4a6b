import { beforeAll, describe, expect, it, vi } from 'vitest';
import { staticKeys } from '../../lambda/auth/accepted-keys.js';
import { createDynamoDbClient } from '../../lambda/storage/dynamodb-client.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engineEndpoint, engines, type TestTable } from '../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../support/fixtures.js';
import { storedItem } from '../support/stored-items.js';
import * as matrix from './support/fault-matrix.js';

/**
 * The fault matrix's DynamoDB rows, on both engines: DynamoDB failing each way behind the fault
 * proxy, with a Lambda-like context whose remaining time runs down. Every cell must answer 503
 * before the deadline and store nothing it then reports as failed (or, where a late write
 * landed, answer so that the retry finds it). The figures go to docs/failure-handling.md.
 */
const rows = matrix.collectRows();

describe.each(engines)('DynamoDB faults, on %s', (engine) => {
  let table: TestTable;
  beforeAll(async () => {
    table = await createTestTable(engine);
  });

  /** The receiver as deployed, with its DynamoDB client pointed at `endpoint`. */
  function receiverThrough(endpoint: string, attempts = matrix.storeAttempts) {
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', endpoint);
    const client = createDynamoDbClient({ timeoutMs: attempts.attemptTimeoutMs });
    const store = new DynamoDbTransactionStore(client, table.tableName, attempts);
    return matrix.receiver(staticKeys([specKey]), store);
  }

  it.each(matrix.faults)(
    'answers 503 with Retry-After before the deadline when DynamoDB %s',
    async (fault) => {
      const { endpoint, proxy, heal } = await matrix.endpointWith(
        fault,
        engineEndpoint(engine),
        'dynamodb',
      );
      const invoke = receiverThrough(endpoint);
      const fields = transaction();
      const reference = fields.reference as string;
      try {
        const { result: response, ms } = await matrix.timed(() =>
          invoke(callbackEvent(signed(fields)), matrix.runningDown(matrix.remainingMs)),
        );
        expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
        expect(ms).toBeLessThan(matrix.remainingMs - matrix.marginMs / 2);

        // What the failed answer left behind: nothing, or (a slow write) an item the retry finds.
        heal();
        await proxy?.idle();
        const late = await storedItem(table, { reference });
        let effect = 'nothing stored';
        if (fault !== 'refused') {
          // The gateway's retry, once DynamoDB answers again, with the default attempt timeout:
          // a loaded machine's engine may take longer than the matrix's 500 ms.
          const retry = receiverThrough(endpoint, { attemptTimeoutMs: 2_000, maxAttempts: 3 });
          const retried = await retry(callbackEvent(signed(fields)), matrix.runningDown(10_000));
          expect(retried.statusCode).toBe(204);
          // A retry's own attempt may time out on a loaded machine after its write landed: its
          // next attempt then meets the condition and says duplicate. Either way, one item.
          const outcome = retried.headers?.['x-callback-outcome'];
          expect(late ? ['duplicate'] : ['recorded', 'duplicate']).toContain(outcome);
          expect(await storedItem(table, { reference })).toBeDefined();
          effect = late
            ? 'slow write landed after the 503; the retry answers 204 duplicate'
            : 'nothing stored; the retry answers 204';
        } else {
          expect(late).toBeUndefined();
        }
        if (fault === 'hang' || fault === 'server-error' || fault === 'throttle') {
          expect(late).toBeUndefined();
        }
        rows.push({
          dependency: `DynamoDB (${engine})`,
          fault: matrix.faultNames[fault],
          answer: String(response.statusCode),
          retryAfter: String(response.headers?.['retry-after']),
          maxMs: ms,
          effect,
        });
      } finally {
        await proxy?.stop();
      }
    },
  );

  it('starts no attempt when the time left cannot hold one, and answers 503 at once', async () => {
    const { endpoint, proxy } = await matrix.endpointWith(
      'hang',
      engineEndpoint(engine),
      'dynamodb',
    );
    const invoke = receiverThrough(endpoint);
    try {
      const { result: response, ms } = await matrix.timed(() =>
        invoke(
          callbackEvent(signed(transaction())),
          matrix.runningDown(matrix.marginMs + matrix.attemptTimeoutMs - 100),
        ),
      );
      expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
      expect(proxy?.stats().requests).toBe(0);
      expect(ms).toBeLessThan(matrix.attemptTimeoutMs);
      rows.push({
        dependency: `DynamoDB (${engine})`,
        fault: `${matrix.marginMs + matrix.attemptTimeoutMs - 100} ms left: no room for one attempt`,
        answer: '503',
        retryAfter: '1',
        maxMs: ms,
        effect: 'no request sent',
      });
    } finally {
      await proxy?.stop();
    }
  });
});
