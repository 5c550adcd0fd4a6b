import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../scripts/cli/cli-errors.js';
import { callbackBody, sampleTransaction } from '../../../scripts/gateway/gateway-callback.js';
import { acquireDataLock } from '../../../scripts/local/data-lock.js';
import { localData } from '../../../scripts/local/local-data.js';
import { openLocalTable } from '../../../scripts/local/local-table.js';
import { startLocalServer } from '../../../scripts/local/server.js';

/**
 * How the tools open local mode's table (openLocalTable): through the running server's engine,
 * else the data folder under its lock, waiting for another query; and what they say when there
 * is nothing to open.
 */

const key = 'local-table-key';
const tableName = 'callback-transactions';

async function record(url: string, reference: string) {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: callbackBody(sampleTransaction({ reference }), key),
  });
  expect(answer.status).toBe(204);
}

async function storedStatus(table: Awaited<ReturnType<typeof openLocalTable>>, reference: string) {
  const { Item } = await table.client.send(
    new GetItemCommand({ TableName: table.tableName, Key: { reference: { S: reference } } }),
  );
  return Item?.reference?.S;
}

describe('openLocalTable', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'local-table-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('refuses :memory:, which keeps nothing to read, and points at the banner', async () => {
    const opening = openLocalTable(localData(':memory:'), tableName);

    await expect(opening).rejects.toBeInstanceOf(UsageError);
    await expect(opening).rejects.toThrow(/with the DATA_DIR its banner printed/);
  });

  it('says how to make data when the folder has none', async () => {
    const empty = join(folder, 'empty');
    await mkdir(empty);

    await expect(openLocalTable(localData(empty), tableName)).rejects.toThrow(
      `No local data in ${empty}. Start the server (npm start), send callbacks (npm run simulate), then query;`,
    );
  });

  it('reads through the running server, on its table, while it holds the folder', async () => {
    const dataDir = join(folder, 'running');
    const server = await startLocalServer({
      port: 0,
      dataDir,
      apiKeys: key,
      tableName: 'running-table',
    });
    try {
      await record(server.url, 'local-table-running');

      const table = await openLocalTable(localData(dataDir), tableName);
      try {
        expect(table.description).toBe(`the running local server (pid ${process.pid})`);
        expect(table.tableName).toBe('running-table');
        expect(await storedStatus(table, 'local-table-running')).toBe('local-table-running');
      } finally {
        await table.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('opens a stopped server’s folder itself, says so, and lets go of it on close', async () => {
    const dataDir = join(folder, 'stopped');
    const first = await startLocalServer({ port: 0, dataDir, apiKeys: key });
    await record(first.url, 'local-table-stopped');
    await first.stop();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);

    try {
      const table = await openLocalTable(localData(dataDir), tableName);
      try {
        expect(table.description).toBe(`local data in ${dataDir}`);
        expect(await storedStatus(table, 'local-table-stopped')).toBe('local-table-stopped');
        expect(stderr.mock.calls.map(([text]) => String(text)).join('')).toContain(
          `Reading ${dataDir} directly: no local server is running on it.`,
        );
      } finally {
        await table.close();
      }
    } finally {
      stderr.mockRestore();
    }
    // Closed: the folder is free for the server again.
    const again = await startLocalServer({ port: 0, dataDir, apiKeys: key });
    await again.stop();
  });

  it('waits for another query to let go of the folder, then opens it', async () => {
    const dataDir = join(folder, 'busy');
    const data = localData(dataDir);
    const server = await startLocalServer({ port: 0, dataDir, apiKeys: key });
    await server.stop();
    if (data.kind !== 'disk') throw new Error('a folder');
    const other = await acquireDataLock(data.lockFile, 'query');
    setTimeout(() => void other.release(), 300);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);

    try {
      const started = Date.now();
      const table = await openLocalTable(data, tableName);
      await table.close();

      expect(table.description).toBe(`local data in ${dataDir}`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    } finally {
      stderr.mockRestore();
    }
  });

  it('gives up on a folder another query holds for 10 s, naming the holder', async () => {
    const dataDir = join(folder, 'held');
    const data = localData(dataDir);
    const server = await startLocalServer({ port: 0, dataDir, apiKeys: key });
    await server.stop();
    if (data.kind !== 'disk') throw new Error('a folder');
    const other = await acquireDataLock(data.lockFile, 'query');
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    try {
      const opening = openLocalTable(data, tableName);
      const outcome = opening.then(
        () => 'opened',
        (error: Error) => error.message,
      );
      // Each poll reads the lock file (real I/O), then sleeps 100 ms (fake time).
      let settled: string | undefined;
      void outcome.then((message) => {
        settled = message;
      });
      while (settled === undefined) await vi.advanceTimersByTimeAsync(500);

      expect(settled).toBe(
        `The local data folder ${dataDir} stayed busy (query pid ${process.pid}) for 10 s.`,
      );
    } finally {
      vi.useRealTimers();
      await other.release();
    }
  });

  it('fails with a missing table instead of creating one in a folder the server made', async () => {
    const dataDir = join(folder, 'other-table');
    const server = await startLocalServer({ port: 0, dataDir, apiKeys: key });
    await server.stop();

    const opening = openLocalTable(localData(dataDir), 'no-such-table');

    await expect(opening).rejects.toThrow(/no-such-table/);
    // The failed open let go of the folder and its engine.
    const again = await startLocalServer({ port: 0, dataDir, apiKeys: key });
    await again.stop();
  });
});
