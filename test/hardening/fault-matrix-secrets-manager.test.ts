import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { secretCacheMs, secretKeys } from '../../lambda/auth/secret-keys.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { type AwsStandIn, startAwsStandIn } from '../support/aws-stand-ins.js';
import { createTestTable, engines, type TestTable } from '../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../support/fixtures.js';
import { storedItem } from '../support/stored-items.js';
import * as matrix from './support/fault-matrix.js';

/**
 * The fault matrix's Secrets Manager rows: a small HTTP stand-in behind the fault proxy, failing
 * each way, with a Lambda-like context whose remaining time runs down. With no keys known the
 * answer is 503 before the deadline and nothing is stored; with keys cached, a request does not
 * wait on the failing refresh. The figures go to docs/failure-handling.md.
 */
const rows = matrix.collectRows();

describe('Secrets Manager faults', () => {
  const engine = engines[0] ?? 'dynalite';
  let table: TestTable;
  let secretsManager: AwsStandIn;
  beforeAll(async () => {
    table = await createTestTable(engine);
    secretsManager = await startAwsStandIn({ secretString: specKey });
  });
  afterAll(() => secretsManager.stop());

  it.each(matrix.faults)(
    'answers 503 keys-unavailable before the deadline while no keys are known and Secrets Manager %s, and 204 at once with keys cached',
    async (fault) => {
      const { endpoint, proxy, heal } = await matrix.endpointWith(
        fault,
        secretsManager.endpoint,
        'secretsmanager',
      );
      vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', endpoint);
      const store = new DynamoDbTransactionStore(
        table.client,
        table.tableName,
        matrix.storeAttempts,
      );
      const secretOptions = { timeoutMs: matrix.attemptTimeoutMs, maxAttempts: 2 };
      try {
        // No keys known: the key cannot be judged.
        const cold = matrix.receiver(secretKeys('callback-keys', secretOptions), store);
        const fields = transaction();
        const { result: response, ms } = await matrix.timed(() =>
          cold(callbackEvent(signed(fields)), matrix.runningDown(matrix.remainingMs)),
        );
        expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
        expect(JSON.parse(response.body).type).toBe(
          'urn:callback-receiver:problem:keys-unavailable',
        );
        expect(ms).toBeLessThan(matrix.remainingMs - matrix.marginMs / 2);
        expect(await storedItem(table, { reference: fields.reference as string })).toBeUndefined();

        // Keys cached and stale: the request does not wait on the failing refresh.
        let offset = 0;
        heal();
        vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', proxy?.endpoint ?? secretsManager.endpoint);
        const warm = matrix.receiver(
          secretKeys('callback-keys', { ...secretOptions, now: () => Date.now() + offset }),
          store,
        );
        expect(
          (await warm(callbackEvent(signed(transaction())), matrix.runningDown(matrix.remainingMs)))
            .statusCode,
        ).toBe(204);
        if (fault === 'refused') {
          // The warm provider keeps its client: send its refresh to a dead port from now on.
          await proxy?.stop();
        }
        const breakAgain = await matrix.endpointWith(
          fault,
          secretsManager.endpoint,
          'secretsmanager',
        );
        offset = secretCacheMs;
        const warmFields = transaction();
        const { result: warmResponse, ms: warmMs } = await matrix.timed(() =>
          warm(callbackEvent(signed(warmFields)), matrix.runningDown(matrix.remainingMs)),
        );
        expect(warmResponse.statusCode).toBe(204);
        expect(warmMs).toBeLessThan(matrix.attemptTimeoutMs);
        await breakAgain.proxy?.stop();
        rows.push({
          dependency: 'Secrets Manager, no keys known',
          fault: matrix.faultNames[fault],
          answer: '503 keys-unavailable',
          retryAfter: '1',
          maxMs: ms,
          effect: `nothing stored; with stale keys cached: 204 in ${warmMs} ms`,
        });
      } finally {
        await proxy?.stop();
      }
    },
  );
});
