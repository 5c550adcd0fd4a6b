import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import {
  callbackBody,
  type GatewayTransaction,
  sampleTransaction,
} from '../../../scripts/gateway/gateway-callback.js';
import { localData } from '../../../scripts/local/local-data.js';
import { engineClient } from '../../../scripts/local/local-table.js';
import { type LocalServer, startLocalServer } from '../../../scripts/local/server.js';
import { consoleRequest } from '../../support/console-request.js';
import { engineEndpoint } from '../../support/engines.js';
import { feeFields, feeTable } from '../../support/fee-fields.js';
import { cookieOf } from '../../support/raw-http.js';

/**
 * `startLocalServer` is what benchmarks and hardening tests use to run local mode inside their
 * own process. The handler reads its configuration at import, so each server must get a fresh
 * instance of it.
 */

const transaction = (reference: string): GatewayTransaction =>
  sampleTransaction({ id: '9007199254740993', reference });

const post = (server: LocalServer, key: string, reference: string) =>
  fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: callbackBody(transaction(reference), key),
  });

describe('startLocalServer', () => {
  const servers: LocalServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('runs two servers with different keys side by side in one process', async () => {
    const first = await startLocalServer({ port: 0, dataDir: ':memory:', apiKeys: 'key-one' });
    servers.push(first);
    const second = await startLocalServer({ port: 0, dataDir: ':memory:', apiKeys: 'key-two' });
    servers.push(second);

    const answers = await Promise.all([
      post(first, 'key-one', 'ref-1'),
      post(first, 'key-two', 'ref-2'),
      post(second, 'key-two', 'ref-3'),
      post(second, 'key-one', 'ref-4'),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([204, 401, 204, 401]);
    expect(first.engine.endpoint).not.toBe(second.engine.endpoint);
  });

  it('answers a redelivery as a duplicate', async () => {
    const server = await startLocalServer({ port: 0, dataDir: ':memory:', apiKeys: 'key' });
    servers.push(server);

    const first = await post(server, 'key', 'ref-dup');
    const again = await post(server, 'key', 'ref-dup');

    expect(first.headers.get('x-callback-outcome')).toBe('recorded');
    expect(again.status).toBe(204);
    expect(again.headers.get('x-callback-outcome')).toBe('duplicate');
  });

  it('counts its callbacks for the console, each server its own', async () => {
    const server = await startLocalServer({ port: 0, dataDir: ':memory:', apiKeys: 'key' });
    servers.push(server);

    await post(server, 'key', 'ref-counted');
    await post(server, 'key', 'ref-counted');
    await post(server, 'wrong', 'ref-other');

    const { totals } = await server.activity.series('hour');
    expect([totals.recorded, totals.duplicate, totals.unauthorized]).toEqual([1, 1, 1]);
  });

  it('with hashMode required, refuses a callback without its hash', async () => {
    const server = await startLocalServer({
      port: 0,
      dataDir: ':memory:',
      apiKeys: 'key',
      hashMode: 'required',
    });
    servers.push(server);
    const { hash: _hash, ...unhashed } = JSON.parse(
      callbackBody(transaction('ref-unhashed'), 'key'),
    ) as Record<string, unknown>;

    const answer = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'key' },
      body: JSON.stringify(unhashed),
    });

    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ title: 'Hash is required' });
    expect((await post(server, 'key', 'ref-hashed')).status).toBe(204);
  });

  it('a start that fails (port taken) reports why and leaves the data folder free', async () => {
    const running = await startLocalServer({ port: 0, dataDir: ':memory:', apiKeys: 'key' });
    servers.push(running);
    const port = Number(new URL(running.url).port);
    const folder = await mkdtemp(join(tmpdir(), 'server-failed-start-'));
    try {
      await expect(
        startLocalServer({ port, dataDir: folder, apiKeys: 'key' }),
      ).rejects.toMatchObject({ code: 'EADDRINUSE' });

      // The lock and the engine were undone: the next start on the folder gets it at once.
      const next = await startLocalServer({ port: 0, dataDir: folder, apiKeys: 'key' });
      servers.push(next);
      expect((await post(next, 'key', 'ref-after-failure')).status).toBe(204);
    } finally {
      await Promise.all(servers.splice(0).map((server) => server.stop()));
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("has the console's header say where the data lives: in memory, or another engine", async () => {
    const headerOf = async (server: LocalServer) => {
      const url = server.console?.url as string;
      const cookie = cookieOf(await consoleRequest(url)) as string;
      const page = await consoleRequest(`${new URL(url).origin}/transactions`, {
        headers: { cookie },
      });
      return /Local mode: [^<]+/.exec(page.body)?.[0];
    };
    const endpoint = engineEndpoint('dynalite');
    const inMemory = await startLocalServer({ port: 0, dataDir: ':memory:', console: {} });
    servers.push(inMemory);
    const elsewhere = await startLocalServer({
      port: 0,
      dataDir: ':memory:',
      endpoint,
      tableName: `server-console-${randomUUID()}`,
      console: {},
    });
    servers.push(elsewhere);

    expect(await headerOf(inMemory)).toBe('Local mode: table callback-transactions, in memory');
    expect(await headerOf(elsewhere)).toBe(
      `Local mode: table ${elsewhere.tableName}, DynamoDB at ${endpoint}`,
    );
  });

  it('receives, stores and lists a field a redeploy adds, when given that declaration', async () => {
    const server = await startLocalServer({
      port: 0,
      dataDir: ':memory:',
      apiKeys: 'key',
      fields: feeFields,
    });
    servers.push(server);
    const body = callbackBody(
      { ...transaction('ref-fee'), fee: '1.50' } as GatewayTransaction,
      'key',
      {},
      feeFields,
    );

    const answer = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'key' },
      body,
    });

    expect(answer.status).toBe(204);
    // As the tools reach it: through the run folder's engine credentials.
    const client = await engineClient(server.engine.endpoint, localData(server.runDir));
    try {
      const { Item } = await client.send(
        new GetItemCommand({ TableName: server.tableName, Key: { reference: { S: 'ref-fee' } } }),
      );
      expect(Item?.fee).toEqual({ N: '1.5' });
      const { Table } = await client.send(
        new DescribeTableCommand({ TableName: server.tableName }),
      );
      expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
        feeTable.indexes.map((index) => index.indexName).sort(),
      );
    } finally {
      client.destroy();
    }
  });
});
