import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KeyProvider } from '../../lambda/auth/accepted-keys.js';
import { minFetchIntervalMs, secretCacheMs, secretKeys } from '../../lambda/auth/secret-keys.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { faultPlan } from '../../scripts/dev/fault-proxy/fault-plan.js';
import {
  type RunningFaultProxy,
  startFaultProxy,
} from '../../scripts/dev/fault-proxy/fault-proxy.js';
import { createTestTable, engineEndpoint, engines, type TestTable } from '../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../support/fixtures.js';
import { receiverEntry, receiverWith } from '../support/receiver.js';
import { recordRequests } from '../support/request-counter.js';
import { checkLogsForLeaks } from './support/leak-check.js';

/**
 * Authentication, attacked: wrong keys of every kind cost no DynamoDB call (counted at the SDK
 * client and on the network), and keys rotate through Secrets Manager and CALLBACK_API_KEYS.
 * How keys are compared is constant-time.test.ts's subject.
 */
const otherKey = '5e0d6c2b9a8f47e1b3c5d7e9f1a2b4c6';

/** Keys that must not authenticate: each differs from the accepted key in one way. */
const unauthenticated: readonly (readonly [string, string | undefined])[] = [
  ['missing', undefined],
  ['empty', ''],
  ['another deployment’s key', otherKey],
  [
    'of the right length but one character off',
    `${specKey.slice(0, -1)}${specKey.endsWith('1') ? '2' : '1'}`,
  ],
  ['in upper case', specKey.toUpperCase()],
  ['one character short', specKey.slice(0, -1)],
  ['one character long', `${specKey}0`],
  ['prefixed with "Bearer "', `Bearer ${specKey}`],
  ['followed by a NUL', `${specKey}\u0000`],
  ['with a space inside', `${specKey.slice(0, 8)} ${specKey.slice(8)}`],
];

describe.each(engines)('authentication on %s', (engine) => {
  let table: TestTable;
  beforeAll(async () => {
    table = await createTestTable(engine);
  });
  afterAll(() => table.drop());

  it.each(unauthenticated)(
    'answers 401 to a key %s and makes no DynamoDB call at all',
    async (_name, key) => {
      // Prepare: a body signed with the presented key, so only the key itself is wrong.
      const invoke = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName));
      const recorder = recordRequests(table.client);
      const body = signed(transaction(), key ?? otherKey);

      // Act
      const response = await invoke(
        callbackEvent(body, { headers: { 'x-api-key': key as string } }),
      );
      recorder.stop();

      // Assess
      expect(response.statusCode).toBe(401);
      expect(recorder.requests()).toEqual([]);
    },
  );

  describe('the Lambda entry (lambda/receiver.ts), counted on the network', () => {
    let proxy: RunningFaultProxy;
    let handler: (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

    beforeAll(async () => {
      proxy = await startFaultProxy({
        upstream: engineEndpoint(engine),
        plan: faultPlan({ fraction: 0, seed: 1 }),
      });
      handler = await receiverEntry({
        TABLE_NAME: table.tableName,
        CALLBACK_API_KEYS: specKey,
        AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint,
      });
    });
    afterAll(async () => {
      vi.unstubAllEnvs();
      await proxy.stop();
    });

    it('sends no request to DynamoDB for any unauthenticated callback, and one for an authentic one', async () => {
      // Act
      const refused = [];
      for (const [, key] of unauthenticated) {
        const event = callbackEvent(signed(transaction(), key ?? otherKey), {
          headers: { 'x-api-key': key as string },
        });
        refused.push((await handler(event)).statusCode);
      }
      const requestsWhileRefusing = proxy.stats().requests;
      const accepted = await handler(callbackEvent(signed(transaction())));

      // Assess
      expect(refused).toEqual(unauthenticated.map(() => 401));
      expect(requestsWhileRefusing).toBe(0);
      expect(accepted.statusCode).toBe(204);
      expect(proxy.stats().requests).toBeGreaterThan(0);
    });
  });

  describe('key rotation', () => {
    it('accepts a new key as soon as the secret holds it, and refuses the old one once a refresh has removed it', async () => {
      // Prepare: a scripted Secrets Manager and the provider's cache clock.
      let now = 0;
      let secret = 'old-key-1f0e2d3c';
      let fetches = 0;
      const client = {
        send: async () => {
          fetches += 1;
          return { SecretString: secret };
        },
      } as unknown as SecretsManagerClient;
      const recorder = recordRequests(table.client);
      const invoke = handlerWithKeys(
        secretKeys('callback-keys', { client, now: () => now }),
        table,
      );
      const status = async (key: string) =>
        (await invoke(callbackEvent(signed(transaction(), key), { headers: { 'x-api-key': key } })))
          .statusCode;

      // Act and assess, step by step through the rotation.
      expect([await status('old-key-1f0e2d3c'), await status('new-key-9a8b7c6d')]).toEqual([
        204, 401,
      ]);
      expect(fetches).toBe(1); // the unknown key right after the first fetch waits its turn
      secret = '{"keys":["old-key-1f0e2d3c","new-key-9a8b7c6d"]}';
      now = minFetchIntervalMs; // still cached, but an unknown key may refresh early
      expect([await status('new-key-9a8b7c6d'), await status('old-key-1f0e2d3c')]).toEqual([
        204, 204,
      ]);
      expect(fetches).toBe(2);
      secret = 'new-key-9a8b7c6d';
      now = 2 * secretCacheMs;
      // The stale copy answers at once while the refresh runs beside the request.
      expect(await status('old-key-1f0e2d3c')).toBe(204);
      await vi.waitFor(() => expect(fetches).toBe(3));
      await new Promise((resolve) => setImmediate(resolve));
      const writesBefore = recorder.requests().length;
      expect(await status('old-key-1f0e2d3c')).toBe(401);
      expect(recorder.requests().length).toBe(writesBefore);
      expect(await status('new-key-9a8b7c6d')).toBe(204);
      recorder.stop();
    });

    it('accepts every key in CALLBACK_API_KEYS during a rotation, and refuses the old one once it is removed', async () => {
      // Prepare
      const during = await receiverEntry({
        TABLE_NAME: table.tableName,
        CALLBACK_API_KEYS: ' old-key-1f0e2d3c , new-key-9a8b7c6d ',
        AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint(engine),
      });
      const after = await receiverEntry({
        TABLE_NAME: table.tableName,
        CALLBACK_API_KEYS: 'new-key-9a8b7c6d',
        AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint(engine),
      });
      const status = async (handler: typeof during, key: string) =>
        (
          await handler(
            callbackEvent(signed(transaction(), key), { headers: { 'x-api-key': key } }),
          )
        ).statusCode;

      // Act
      const statuses = [
        await status(during, 'old-key-1f0e2d3c'),
        await status(during, 'new-key-9a8b7c6d'),
        await status(after, 'old-key-1f0e2d3c'),
        await status(after, 'new-key-9a8b7c6d'),
      ];
      vi.unstubAllEnvs();

      // Assess
      expect(statuses).toEqual([204, 204, 401, 204]);
    });
  });
});

checkLogsForLeaks('after the security checks', [
  ['the key', specKey],
  ['another key', otherKey],
  ['an old key', 'old-key-1f0e2d3c'],
  ['a new key', 'new-key-9a8b7c6d'],
  ['a fixture name', 'Çağrı'],
]);

/** The real handler, wired as lambda/receiver.ts wires it, with a key provider of the test's choosing. */
const handlerWithKeys = (keys: KeyProvider, table: TestTable) =>
  receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), { keys });
