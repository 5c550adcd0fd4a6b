import { describe, expect, it } from 'vitest';
import { transactionFields } from '../../../lambda/callback/transaction-fields.js';
import {
  indexNames,
  indexNamesOf,
  keyAttributesOf,
  listedSince,
  listIndexVersions,
  searchIndexNames,
  transactionsTable,
  transactionsTableOf,
} from '../../../lambda/storage/table-definition.js';
import { feeFields, feeTable } from '../../support/fee-fields.js';

describe("the product's list indexes", () => {
  const newest = listedSince(transactionFields);

  it.each(['byUser', 'byTime'] as const)(
    '%s holds one version, or two while a staged change is under way, none ahead of the fields',
    (base) => {
      const versions = listIndexVersions[base];
      expect(versions.length === 1 || versions.length === 2).toBe(true);
      expect([...versions].sort((a, b) => a - b)).toEqual([...new Set(versions)]);
      expect(Math.max(...versions)).toBeLessThanOrEqual(newest);
    },
  );

  it('are building the newest listed field: a listed field declared alone fails here', () => {
    // docs/design.md, "Adding a field": its version goes on byUser in the same change.
    expect(listIndexVersions.byUser).toContain(newest);
  });

  it('are what the table definition builds, named after their versions', () => {
    const names = transactionsTable.indexes.map((index) => index.indexName);
    const named = (base: string, version: number) => (version > 1 ? `${base}V${version}` : base);
    expect(names).toEqual([
      ...listIndexVersions.byUser.map((version) => named('byUser', version)),
      ...listIndexVersions.byTime.map((version) => named('byTime', version)),
      'byConflictOf',
      ...searchIndexNames,
    ]);
    expect(names).toContain(indexNames.byUser);
    expect(names).toContain(indexNames.byTime);
  });
});

describe('a staged list index', () => {
  const staged = transactionsTableOf(feeFields, { byUser: [1, 2], byTime: [1] });
  const projection = (name: string) =>
    staged.indexes.find((index) => index.indexName === name)?.projection;

  it('projects, beside the old one, the fields listed by its version and `extra`', () => {
    expect(projection('byUser')).toEqual(transactionsTable.indexes[0]?.projection);
    expect(projection('byUserV2')).toEqual([...(projection('byUser') as string[]), 'fee', 'extra']);
    expect(projection('byTime')).toEqual(projection('byUser'));
  });

  it('is read at its old version until that one is gone', () => {
    expect(staged.indexes.map((index) => index.indexName)).toEqual([
      'byUser',
      'byUserV2',
      'byTime',
      'byConflictOf',
      ...searchIndexNames,
    ]);
    expect(indexNamesOf(feeFields, { byUser: [1, 2], byTime: [1] }).byUser).toBe('byUser');
    expect(indexNamesOf(feeFields, { byUser: [2], byTime: [1, 2] }).byUser).toBe('byUserV2');
  });

  it("is settled in a fixture's table, built from scratch", () => {
    expect(feeTable.indexes.map((index) => index.indexName)).toEqual([
      'byUserV2',
      'byTimeV2',
      'byConflictOf',
      ...searchIndexNames,
    ]);
    expect(indexNamesOf(feeFields)).toMatchObject({ byUser: 'byUserV2', byTime: 'byTimeV2' });
  });
});

describe('the search indexes', () => {
  it('key the gateway id as the number it is stored as, every other key a string', () => {
    const types = Object.fromEntries(keyAttributesOf().map(({ name, type }) => [name, type]));
    expect(types).toEqual({
      reference: 'S',
      usernameKey: 'S',
      receivedAt: 'S',
      timeShard: 'S',
      conflictOf: 'S',
      id: 'N',
    });
  });

  it('are left out of a table that names none, the state before search', () => {
    const names = transactionsTableOf(transactionFields, undefined, []).indexes.map(
      (index) => index.indexName,
    );
    expect(names).toEqual(['byUser', 'byTime', 'byConflictOf']);
  });
});
