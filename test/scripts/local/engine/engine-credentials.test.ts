import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  engineCredentialsFor,
  newEngineCredentials,
  saveEngineCredentials,
} from '../../../../scripts/local/engine/engine-credentials.js';
import { type LocalData, localData } from '../../../../scripts/local/local-data.js';

/**
 * The engine's credentials as the tools find them in the data folder: only the pair the running
 * server wrote for the engine a tool is about to reach, and nothing from a file that is not that.
 */
const endpoint = 'http://127.0.0.1:4567';
let dir: string;
let data: Extract<LocalData, { kind: 'disk' }>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engine-credentials-'));
  data = localData(dir) as typeof data;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('engine credentials in the data folder', () => {
  it('gives back what the server saved for its endpoint, in a file only the owner can read', async () => {
    const credentials = newEngineCredentials();

    await saveEngineCredentials(data.engineCredentialsFile, endpoint, credentials);

    expect(await engineCredentialsFor(data, endpoint)).toEqual(credentials);
    expect((await stat(data.engineCredentialsFile)).mode & 0o777).toBe(0o600);
  });

  it("gives none for another engine's endpoint, so a tool never signs for the wrong one", async () => {
    await saveEngineCredentials(data.engineCredentialsFile, endpoint, newEngineCredentials());

    expect(await engineCredentialsFor(data, 'http://127.0.0.1:9999')).toBeUndefined();
  });

  it('gives none without a data folder (in memory), even when a file sits where one would be', async () => {
    await saveEngineCredentials(data.engineCredentialsFile, endpoint, newEngineCredentials());

    expect(await engineCredentialsFor({ kind: 'memory' }, endpoint)).toBeUndefined();
  });

  it.each([
    ['no file', undefined],
    ['a file that is not JSON', 'not json'],
    ['JSON null', 'null'],
    ['no access key id', JSON.stringify({ endpoint, secretAccessKey: 'secret' })],
    ['a numeric access key id', JSON.stringify({ endpoint, accessKeyId: 1, secretAccessKey: 's' })],
    ['no secret', JSON.stringify({ endpoint, accessKeyId: 'LOCALMODE1' })],
    [
      'a numeric secret',
      JSON.stringify({ endpoint, accessKeyId: 'LOCALMODE1', secretAccessKey: 2 }),
    ],
  ])('gives none for %s', async (_, text) => {
    if (text !== undefined) await writeFile(data.engineCredentialsFile, text);

    expect(await engineCredentialsFor(data, endpoint)).toBeUndefined();
  });
});
