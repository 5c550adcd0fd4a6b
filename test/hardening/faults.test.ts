import { randomUUID } from 'node:crypto';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { faultPlan } from '../../scripts/dev/fault-proxy/fault-plan.js';
import {
  type RunningFaultProxy,
  startFaultProxy,
} from '../../scripts/dev/fault-proxy/fault-proxy.js';
import { type DeliveryResult, deliver, type RetryPolicy } from '../../scripts/gateway/deliver.js';
import { type LocalServer, startLocalServer } from '../../scripts/local/server.js';
import {
  createTestClient,
  type Engine,
  engineClientConfig,
  engineEndpoint,
  engines,
} from '../support/engines.js';
import { signed, transaction } from '../support/fixtures.js';
import { expectNoLeaks, logCapture } from '../support/log-capture.js';
import { scanAll } from '../support/stored-items.js';
import { readStream } from '../support/table-stream.js';
import { runPool } from './support/run-pool.js';

/**
 * Faults on the network between the function and DynamoDB: the local server (the real handler
 * behind an API Gateway stand-in) reaches DynamoDB Local through the fault proxy, which throttles,
 * fails, delays past the SDK timeout, or lets a write land and drops its reply. A gateway-style
 * sender retries until it gets a 2xx or a 4xx.
 */
// `npm test` runs a share; `npm run test:hardening` (HARDENING_SWEEP=1) the full run.
const sweep = process.env.HARDENING_SWEEP === '1';
const callbacks = Number(process.env.FAULT_CALLBACKS ?? (sweep ? 1_000 : 200));
const conflicts = Math.max(3, Math.round(callbacks / 100));
const redeliveries = Math.max(3, Math.round(callbacks / 100));
const faultFraction = 0.3;
const seed = Number(process.env.FAULT_SEED ?? 20_240_601);
const sdkTimeoutMs = 300;
const key = 'fault-run-key-7c1e55d0a9b84f2e';
/** Gateway-style: retry 5xx and no-response, stop at 2xx or 4xx; backoff scaled down for a test. */
const retry: RetryPolicy = { maxAttempts: 40, backoffMs: 10, maxBackoffMs: 50, timeoutMs: 20_000 };

/** DynamoDB Local when Java is there (it has streams, as AWS has); dynalite otherwise. */
const engine: Engine = engines.includes('dynamodb-local') ? 'dynamodb-local' : 'dynalite';
const logs = logCapture();
const running: { stop(): Promise<void> }[] = [];

beforeAll(() => {
  logs.start();
  // Read from the shell environment by local mode's configuration, as `npm start` reads it.
  vi.stubEnv('DYNAMODB_TIMEOUT_MS', String(sdkTimeoutMs));
  vi.stubEnv('DYNAMODB_MAX_ATTEMPTS', '3');
});

afterAll(async () => {
  for (const server of running.reverse()) await server.stop();
  logs.stop();
  vi.unstubAllEnvs();
});

/** The local server in front of a fresh table, reaching the engine through `proxy`. */
async function serverBehind(proxy: RunningFaultProxy): Promise<LocalServer> {
  const server = await startLocalServer({
    port: 0,
    dataDir: ':memory:',
    endpoint: proxy.endpoint,
    tableName: `faults-${randomUUID()}`,
    apiKeys: key,
    hashMode: 'required',
  });
  running.push(server);
  return server;
}

async function proxyWith(plan: Parameters<typeof faultPlan>[0], delayMs: number) {
  const proxy = await startFaultProxy({
    upstream: engineEndpoint(engine),
    delayMs,
    plan: faultPlan(plan),
  });
  running.push(proxy);
  return proxy;
}

describe(`faults between the function and DynamoDB (${engine} behind the fault proxy)`, () => {
  it('answers 503 within the SDK attempts when every DynamoDB reply is slower than DYNAMODB_TIMEOUT_MS', async () => {
    // Prepare: every write held 2.5 s, far past the 300 ms timeout of each of 3 attempts.
    const proxy = await proxyWith(
      { fraction: 1, seed, kinds: ['delay'], operations: ['PutItem'] },
      2_500,
    );
    const server = await serverBehind(proxy);
    const body = signed(transaction(), key);

    // Act
    const started = performance.now();
    const result = await deliver(server.url, key, body, { ...retry, maxAttempts: 1 });
    const elapsedMs = performance.now() - started;
    await proxy.idle();

    // Assess: a retryable 503 well before the slow reply, not a 204 after it.
    expect(result.status).toBe(503);
    expect(elapsedMs).toBeLessThan(2_000);
  }, 60_000);

  it(`stores each of ${callbacks} callbacks exactly once under ${faultFraction * 100}% injected faults, every 2xx backed by its item`, async () => {
    // Prepare
    const proxy = await proxyWith(
      { fraction: faultFraction, seed, operations: ['PutItem', 'GetItem'] },
      1_000,
    );
    const server = await serverBehind(proxy);
    const originals = Array.from({ length: callbacks }, () => {
      const fields = transaction({
        username: 'fault.sender',
        firstName: 'Ğizli',
        lastName: 'Ğizli',
      });
      return { reference: fields.reference as string, fields, body: signed(fields, key) };
    });
    const started = performance.now();

    // Act: every callback once, then identical redeliveries and deliberate conflicts.
    const firsts = await runPool(originals, 16, (original) => send(server, original.body));
    const again = await runPool(originals.slice(0, redeliveries), 8, (original) =>
      send(server, original.body),
    );
    const conflicting = originals.slice(redeliveries, redeliveries + conflicts).map((original) => ({
      reference: original.reference,
      body: signed({ ...original.fields, amount: 1 }, key),
    }));
    const refused = await runPool(conflicting, 8, (conflict) => send(server, conflict.body));
    await proxy.idle();
    const seconds = (performance.now() - started) / 1000;

    // Assess: what the sender saw.
    const attempts = [...firsts, ...again, ...refused].flatMap((result) => result.attempts);
    const statuses = tally(attempts.map((attempt) => attempt.status ?? 'no response'));
    expect(
      Object.keys(statuses).filter((status) => !['204', '409', '503'].includes(status)),
    ).toEqual([]);
    expect(firsts.map((result) => result.status)).toEqual(Array(callbacks).fill(204));
    expect(again.map((result) => [result.status, result.outcome])).toEqual(
      Array(redeliveries).fill([204, 'duplicate']),
    );
    expect(refused.map((result) => result.status)).toEqual(Array(conflicts).fill(409));
    const firstAttemptsWith409 = [...firsts, ...again].filter((result) =>
      result.attempts.some((attempt) => attempt.status === 409),
    );
    expect(firstAttemptsWith409).toEqual([]);

    // Assess: what DynamoDB holds, read straight from the engine.
    const direct = createTestClient(engine);
    const items = await scanAll({ client: direct, tableName: server.tableName }, [
      'reference',
      'record',
      'rawBody',
      'conflictOf',
    ]);
    const transactions = items.filter((item) => item.record?.S === 'transaction');
    const byReference = new Map(transactions.map((item) => [item.reference?.S, item.rawBody?.S]));
    expect(transactions).toHaveLength(callbacks);
    for (const original of originals)
      expect(byReference.get(original.reference)).toBe(original.body);
    const conflictItems = items.filter((item) => item.record?.S === 'conflict');
    expect(conflictItems.map((item) => item.conflictOf?.S).sort()).toEqual(
      conflicting.map((conflict) => conflict.reference).sort(),
    );
    const writes = await streamEvents(direct, server.tableName);
    if (writes) {
      // Every key written once: no second write, with the same or different content.
      expect(writes.modified).toBe(0);
      expect(writes.removed).toBe(0);
      expect(writes.insertedKeys).toBe(callbacks + conflicts);
      expect(writes.inserted).toBe(callbacks + conflicts);
    }
    direct.destroy();

    const faults = proxy.stats();
    const lostReplies = firsts.filter((result) => result.outcome === 'duplicate').length;
    const retried = firsts.filter((result) => result.attempts.length > 1).length;
    console.log(
      [
        `fault run on ${engine}, seed ${seed}, ${faultFraction * 100}% of PutItem/GetItem faulted, SDK timeout ${sdkTimeoutMs} ms × 3 attempts:`,
        `  ${callbacks} callbacks + ${redeliveries} redeliveries + ${conflicts} conflicts in ${seconds.toFixed(1)} s`,
        `  HTTP answers seen by the sender: ${JSON.stringify(statuses)} over ${attempts.length} attempts`,
        `  callbacks that needed a retry: ${retried}; max attempts for one: ${Math.max(...firsts.map((r) => r.attempts.length))}`,
        `  first deliveries acknowledged as duplicate (write landed, reply lost, SDK or sender retried): ${lostReplies}`,
        `  DynamoDB requests at the proxy: ${faults.requests}, ${JSON.stringify(faults.byDecision)}`,
        `  stored: ${transactions.length} transactions, ${conflictItems.length} conflict records` +
          (writes ? `; stream: ${writes.inserted} inserts, ${writes.modified} modifications` : ''),
      ].join('\n'),
    );
  }, 600_000);

  it('leaves no key, salted text or name in any log line', () => {
    expectNoLeaks(logs, 'callback not recorded', [
      ['the key', key],
      ['a name', 'Ğizli'],
      ['an escaped name', '\\u011eizli'],
      ['a username', 'fault.sender'],
    ]);
  });
});

function send(server: LocalServer, body: string): Promise<DeliveryResult> {
  return deliver(server.url, key, body, retry);
}

function tally(values: readonly (number | string)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** Every write the table's stream saw, or undefined on an engine without streams. */
async function streamEvents(client: DynamoDBClient, tableName: string) {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (!Table?.LatestStreamArn) return undefined;
  const streams = new DynamoDBStreamsClient(engineClientConfig(engine));
  try {
    const records = await readStream(streams, Table.LatestStreamArn);
    const count = (name: string) => records.filter((record) => record.eventName === name).length;
    const keys = new Set(
      records
        .filter((record) => record.eventName === 'INSERT')
        .map((record) => record.dynamodb?.Keys?.reference?.S),
    );
    return {
      inserted: count('INSERT'),
      insertedKeys: keys.size,
      modified: count('MODIFY'),
      removed: count('REMOVE'),
    };
  } finally {
    streams.destroy();
  }
}
