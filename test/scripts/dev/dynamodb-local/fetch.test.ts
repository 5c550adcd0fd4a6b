import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchDynamoDbLocal, pinned } from '../../../../scripts/dev/dynamodb-local/fetch.js';

/**
 * The cached DynamoDB Local: vitest's global setup fetched it before any test ran, so a second
 * fetch finds it complete and downloads nothing (the download itself needs the registry and
 * 57 MB, which no unit test should spend).
 */
describe('fetchDynamoDbLocal', () => {
  it('returns the pinned version folder in .cache without fetching again', async () => {
    const said: string[] = [];

    const folder = await fetchDynamoDbLocal({ log: (line) => said.push(line) });

    expect(folder).toBe(resolve('.cache/dynamodb-local', pinned.version));
    await access(join(folder, 'DynamoDBLocal.jar'));
    await access(join(folder, 'DynamoDBLocal_lib'));
    expect(said).toEqual([]);
  });
});
