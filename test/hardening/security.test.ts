import { timingSafeEqual } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { acceptedKey, findKey, type KeyProvider } from '../../lambda/auth/accepted-keys.js';
import { minFetchIntervalMs, secretCacheMs, secretKeys } from '../../lambda/auth/secret-keys.js';
import { hashedTextCandidates, verifyHash } from '../../lambda/callback/callback-hash.js';
import { parseStrictJson } from '../../lambda/json/strict-json.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { faultPlan } from '../../scripts/dev/fault-proxy/fault-plan.js';
import {
  type RunningFaultProxy,
  startFaultProxy,
} from '../../scripts/dev/fault-proxy/fault-proxy.js';
import { createTestTable, engineEndpoint, engines, type TestTable } from '../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../support/fixtures.js';
import { expectNoLeaks, logCapture } from '../support/log-capture.js';
import { receiverEntry, receiverWith } from '../support/receiver.js';
import { recordRequests } from '../support/request-counter.js';
import { findSecretComparisons } from './support/secret-comparisons.js';

// Every call of timingSafeEqual made by the receiver's code, passed through to the real one.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});
const compared = vi.mocked(timingSafeEqual);

const otherKey = '5e0d6c2b9a8f47e1b3c5d7e9f1a2b4c6';
const logs = logCapture();
beforeAll(() => logs.start());
afterAll(() => logs.stop());
beforeEach(() => {
  compared.mockClear();
});

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

  describe('constant-time comparison, observed', () => {
    it('compares a presented key with every accepted key as 32-byte digests, whatever its length', async () => {
      // Prepare
      const invoke = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), {
        keys: [otherKey, specKey],
      });

      // Act
      for (const key of ['x', specKey.slice(0, -1), `${specKey}${'0'.repeat(4_000)}`]) {
        await invoke(callbackEvent(signed(transaction(), key), { headers: { 'x-api-key': key } }));
      }

      // Assess: two accepted keys, three requests, six comparisons of 32 bytes each.
      expect(compared.mock.calls.map(([a, b]) => [a.byteLength, b.byteLength])).toEqual(
        Array(6).fill([32, 32]),
      );
    });
  });
});

describe('constant-time comparison of secrets', () => {
  it('finds no ===, equals, includes, Buffer.compare or lookup on a key or hash in lambda/auth and lambda/callback', async () => {
    // Prepare
    const files = await sourcesIn(['lambda/auth', 'lambda/callback']);

    // Act
    const findings = files.flatMap(({ file, source }) => findSecretComparisons(file, source));

    // Assess
    expect(files.length).toBeGreaterThan(5);
    expect(findings).toEqual([]);
  });

  it('the static check does catch the comparisons it looks for', () => {
    const unsafe = [
      'if (presented === key.value) return key;',
      'return accepted.includes(presented);',
      'if (digest.equals(key.digest)) found = key;',
      'if (Buffer.compare(expected, received) === 0) ok();',
      'return receivedHash == expected;',
      'const key = byValue.get(presented);',
    ].join('\n');
    const safe =
      "if (hash === undefined || hash === '') return; if (typeof hash !== 'string') x();";

    expect(findSecretComparisons('unsafe.ts', unsafe).map((finding) => finding.line)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
    expect(findSecretComparisons('safe.ts', safe)).toEqual([]);
  });

  it('checks keys with timingSafeEqual on SHA-256 digests against every key, never stopping at a match', () => {
    // Prepare
    const keys = ['k-one', 'k-two', specKey].map(acceptedKey);

    // Act and assess: the match first, last, or nowhere; short and long guesses.
    for (const presented of ['k-one', specKey, '', 'k', 'x'.repeat(10_000)]) {
      compared.mockClear();
      findKey(keys, presented);
      expect(compared.mock.calls.map(([a, b]) => [a.byteLength, b.byteLength])).toEqual(
        Array(keys.length).fill([32, 32]),
      );
    }
  });

  it('checks a hash against every candidate text with timingSafeEqual on 32-byte digests, never stopping at a match', () => {
    // Prepare: non-ASCII and whitespace: the raw and compact texts, each also \u-escaped twice.
    const body = signed(transaction(), specKey, { wire: 'utf8' }).replace(',', ', ');
    const document = parseStrictJson(body);
    const candidates = hashedTextCandidates(body, document.memberSpans.get('hash'));
    const hash = (document.value as { hash: string }).hash;

    // Act and assess: the right hash, and a wrong one of the right form.
    expect(candidates).toHaveLength(6);
    for (const [received, verdict] of [
      [hash, true],
      ['0'.repeat(64), false],
    ] as const) {
      compared.mockClear();
      expect(verifyHash(candidates, specKey, received)).toBe(verdict);
      expect(compared.mock.calls.map(([a, b]) => [a.byteLength, b.byteLength])).toEqual(
        Array(candidates.length).fill([32, 32]),
      );
    }
  });
});

describe('after the security checks', () => {
  it('leaves no key or salted text in any captured log line', () => {
    expectNoLeaks(logs, 'callback refused', [
      ['the key', specKey],
      ['another key', otherKey],
      ['an old key', 'old-key-1f0e2d3c'],
      ['a new key', 'new-key-9a8b7c6d'],
      ['a fixture name', 'Çağrı'],
    ]);
  });
});

/** The real handler, wired as lambda/receiver.ts wires it, with a key provider of the test's choosing. */
const handlerWithKeys = (keys: KeyProvider, table: TestTable) =>
  receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), { keys });

async function sourcesIn(folders: readonly string[]) {
  const root = join(import.meta.dirname, '..', '..');
  const files: { file: string; source: string }[] = [];
  for (const folder of folders) {
    for (const name of await readdir(join(root, folder))) {
      if (!name.endsWith('.ts')) continue;
      const file = join(folder, name);
      files.push({ file, source: await readFile(join(root, file), 'utf8') });
    }
  }
  return files;
}
