import { timingSafeEqual } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { acceptedKey, findKey } from '../../lambda/auth/accepted-keys.js';
import { hashedTextCandidates, verifyHash } from '../../lambda/callback/callback-hash.js';
import { parseStrictJson } from '../../lambda/json/strict-json.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engines, type TestTable } from '../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../support/fixtures.js';
import { receiverWith } from '../support/receiver.js';
import { checkLogsForLeaks } from './support/leak-check.js';
import { findSecretComparisons } from './support/secret-comparisons.js';

/**
 * Keys and hashes are compared in constant time: a static check of the source for comparisons
 * that stop early, and timingSafeEqual observed at run time, through the handler and alone.
 */

// Every call of timingSafeEqual made by the receiver's code, passed through to the real one.
// Files share a worker's modules (vitest.config.ts, `isolate`): the receiver's modules are
// evaluated afresh here, so that they import the watched function rather than a cached real one.
vi.hoisted(() => vi.resetModules());
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});
const compared = vi.mocked(timingSafeEqual);

const otherKey = '5e0d6c2b9a8f47e1b3c5d7e9f1a2b4c6';
beforeEach(() => {
  compared.mockClear();
});

describe.each(engines)('authentication on %s', (engine) => {
  let table: TestTable;
  beforeAll(async () => {
    table = await createTestTable(engine);
  });
  afterAll(() => table.drop());

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

checkLogsForLeaks('after the constant-time checks', [
  ['the key', specKey],
  ['another key', otherKey],
  ['a fixture name', 'Çağrı'],
]);

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
