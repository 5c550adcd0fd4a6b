import type { Context, DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type KeyProvider, staticKeys } from '../../lambda/auth/accepted-keys.js';
import { secretCacheMs, secretKeys } from '../../lambda/auth/secret-keys.js';
import { EventBridgePublisher } from '../../lambda/events/event-publisher.js';
import { createEventBridgeClient } from '../../lambda/events/eventbridge-client.js';
import { createDynamoDbClient } from '../../lambda/storage/dynamodb-client.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { transactionItem } from '../../lambda/storage/transaction-item.js';
import type { Decision } from '../../scripts/dev/fault-proxy/fault-plan.js';
import {
  type RunningFaultProxy,
  type Service,
  startFaultProxy,
} from '../../scripts/dev/fault-proxy/fault-proxy.js';

import { freePort } from '../../scripts/local/free-port.js';
import { type AwsStandIn, startAwsStandIn } from '../support/aws-stand-ins.js';
import {
  createTestTable,
  engineEndpoint,
  engines,
  stubAwsEnvironment,
  type TestTable,
} from '../support/engines.js';
import { callbackEvent, lambdaContext, signed, specKey, transaction } from '../support/fixtures.js';
import { receiverWith } from '../support/receiver.js';
import { storedItem } from '../support/stored-items.js';
import { streamConsumerWith } from '../support/stream-consumer.js';
import { recordOf, streamRecord } from '../support/stream-records.js';

/**
 * Each dependency × each way it can fail, with a Lambda-like context whose remaining time runs
 * down. Every cell must answer before the deadline with the right status, and store or publish
 * nothing it then reports as failed (or, where a late write landed, answer so that the retry
 * finds it). The figures go to docs/failure-handling.md.
 */

/** Lambda's remaining time at the start of each invocation, and what the function keeps back. */
const remainingMs = 3_000;
const marginMs = 500;
/** Per-attempt timeout of every client here; the proxy's slow answer comes after it. */
const attemptTimeoutMs = 500;
const slowAnswerMs = 1_000;

type Fault = 'hang' | 'delay' | 'refused' | 'server-error' | 'throttle';
const faults: readonly Fault[] = ['hang', 'delay', 'refused', 'server-error', 'throttle'];
const faultNames: Record<Fault, string> = {
  hang: 'accepts, never answers',
  delay: `answers after the attempt timeout (${slowAnswerMs} ms)`,
  refused: 'connection refused',
  'server-error': '500',
  throttle: 'throttling',
};

/** A context whose `getRemainingTimeInMillis` counts down from `ms`, as Lambda's does. */
function runningDown(ms: number): Context {
  const deadline = Date.now() + ms;
  return { ...lambdaContext, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}

interface Row {
  readonly dependency: string;
  readonly fault: string;
  readonly answer: string;
  readonly retryAfter: string;
  readonly maxMs: number;
  readonly effect: string;
}
const rows: Row[] = [];

/** A proxy applying `fault` (switchable to `pass`), or for `refused` a port nobody listens on. */
async function endpointWith(
  fault: Fault,
  upstream: string,
  service: Service,
): Promise<{ endpoint: string; proxy?: RunningFaultProxy; heal(): void }> {
  if (fault === 'refused') {
    return { endpoint: `http://127.0.0.1:${await freePort()}`, heal: () => undefined };
  }
  let decision: Decision = fault;
  const proxy = await startFaultProxy({
    upstream,
    service,
    delayMs: slowAnswerMs,
    plan: () => decision,
  });
  return { endpoint: proxy.endpoint, proxy, heal: () => (decision = 'pass') };
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: Math.round(performance.now() - started) };
}

beforeAll(stubAwsEnvironment);

afterAll(() => {
  vi.unstubAllEnvs();
  const lines = [
    '| dependency | fault | answer | Retry-After | answer time (max) | stored / published |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.dependency} | ${row.fault} | ${row.answer} | ${row.retryAfter} | ${row.maxMs} ms | ${row.effect} |`,
    ),
  ];
  console.log(
    `Fault matrix: ${remainingMs} ms left at the start of each invocation, ${marginMs} ms margin, ${attemptTimeoutMs} ms per attempt\n${lines.join('\n')}`,
  );
});

const receiver = (keys: KeyProvider, store: DynamoDbTransactionStore) =>
  receiverWith(store, { keys, timeBudgetMarginMs: marginMs });

const storeAttempts = { attemptTimeoutMs, maxAttempts: 3 };

describe.each(engines)('DynamoDB faults, on %s', (engine) => {
  let table: TestTable;
  beforeAll(async () => {
    table = await createTestTable(engine);
  });

  /** The receiver as deployed, with its DynamoDB client pointed at `endpoint`. */
  function receiverThrough(endpoint: string, attempts = storeAttempts) {
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', endpoint);
    const client = createDynamoDbClient({ timeoutMs: attempts.attemptTimeoutMs });
    const store = new DynamoDbTransactionStore(client, table.tableName, attempts);
    return receiver(staticKeys([specKey]), store);
  }

  it.each(faults)(
    'answers 503 with Retry-After before the deadline when DynamoDB %s',
    async (fault) => {
      const { endpoint, proxy, heal } = await endpointWith(
        fault,
        engineEndpoint(engine),
        'dynamodb',
      );
      const invoke = receiverThrough(endpoint);
      const fields = transaction();
      const reference = fields.reference as string;
      try {
        const { result: response, ms } = await timed(() =>
          invoke(callbackEvent(signed(fields)), runningDown(remainingMs)),
        );
        expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
        expect(ms).toBeLessThan(remainingMs - marginMs / 2);

        // What the failed answer left behind: nothing, or (a slow write) an item the retry finds.
        heal();
        await proxy?.idle();
        const late = await storedItem(table, { reference });
        let effect = 'nothing stored';
        if (fault !== 'refused') {
          // The gateway's retry, once DynamoDB answers again, with the default attempt timeout:
          // a loaded machine's engine may take longer than the matrix's 500 ms.
          const retry = receiverThrough(endpoint, { attemptTimeoutMs: 2_000, maxAttempts: 3 });
          const retried = await retry(callbackEvent(signed(fields)), runningDown(10_000));
          expect(retried.statusCode).toBe(204);
          // A retry's own attempt may time out on a loaded machine after its write landed: its
          // next attempt then meets the condition and says duplicate. Either way, one item.
          const outcome = retried.headers?.['x-callback-outcome'];
          expect(late ? ['duplicate'] : ['recorded', 'duplicate']).toContain(outcome);
          expect(await storedItem(table, { reference })).toBeDefined();
          effect = late
            ? 'slow write landed after the 503; the retry answers 204 duplicate'
            : 'nothing stored; the retry answers 204';
        } else {
          expect(late).toBeUndefined();
        }
        if (fault === 'hang' || fault === 'server-error' || fault === 'throttle') {
          expect(late).toBeUndefined();
        }
        rows.push({
          dependency: `DynamoDB (${engine})`,
          fault: faultNames[fault],
          answer: String(response.statusCode),
          retryAfter: String(response.headers?.['retry-after']),
          maxMs: ms,
          effect,
        });
      } finally {
        await proxy?.stop();
      }
    },
  );

  it('starts no attempt when the time left cannot hold one, and answers 503 at once', async () => {
    const { endpoint, proxy } = await endpointWith('hang', engineEndpoint(engine), 'dynamodb');
    const invoke = receiverThrough(endpoint);
    try {
      const { result: response, ms } = await timed(() =>
        invoke(
          callbackEvent(signed(transaction())),
          runningDown(marginMs + attemptTimeoutMs - 100),
        ),
      );
      expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
      expect(proxy?.stats().requests).toBe(0);
      expect(ms).toBeLessThan(attemptTimeoutMs);
      rows.push({
        dependency: `DynamoDB (${engine})`,
        fault: `${marginMs + attemptTimeoutMs - 100} ms left: no room for one attempt`,
        answer: '503',
        retryAfter: '1',
        maxMs: ms,
        effect: 'no request sent',
      });
    } finally {
      await proxy?.stop();
    }
  });
});

describe('Secrets Manager faults', () => {
  const engine = engines[0] ?? 'dynalite';
  let table: TestTable;
  let secretsManager: AwsStandIn;
  beforeAll(async () => {
    table = await createTestTable(engine);
    secretsManager = await startAwsStandIn({ secretString: specKey });
  });
  afterAll(() => secretsManager.stop());

  it.each(faults)(
    'answers 503 keys-unavailable before the deadline while no keys are known and Secrets Manager %s, and 204 at once with keys cached',
    async (fault) => {
      const { endpoint, proxy, heal } = await endpointWith(
        fault,
        secretsManager.endpoint,
        'secretsmanager',
      );
      vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', endpoint);
      const store = new DynamoDbTransactionStore(table.client, table.tableName, storeAttempts);
      const secretOptions = { timeoutMs: attemptTimeoutMs, maxAttempts: 2 };
      try {
        // No keys known: the key cannot be judged.
        const cold = receiver(secretKeys('callback-keys', secretOptions), store);
        const fields = transaction();
        const { result: response, ms } = await timed(() =>
          cold(callbackEvent(signed(fields)), runningDown(remainingMs)),
        );
        expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
        expect(JSON.parse(response.body).type).toBe(
          'urn:callback-receiver:problem:keys-unavailable',
        );
        expect(ms).toBeLessThan(remainingMs - marginMs / 2);
        expect(await storedItem(table, { reference: fields.reference as string })).toBeUndefined();

        // Keys cached and stale: the request does not wait on the failing refresh.
        let offset = 0;
        heal();
        vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', proxy?.endpoint ?? secretsManager.endpoint);
        const warm = receiver(
          secretKeys('callback-keys', { ...secretOptions, now: () => Date.now() + offset }),
          store,
        );
        expect(
          (await warm(callbackEvent(signed(transaction())), runningDown(remainingMs))).statusCode,
        ).toBe(204);
        if (fault === 'refused') {
          // The warm provider keeps its client: send its refresh to a dead port from now on.
          await proxy?.stop();
        }
        const breakAgain = await endpointWith(fault, secretsManager.endpoint, 'secretsmanager');
        offset = secretCacheMs;
        const warmFields = transaction();
        const { result: warmResponse, ms: warmMs } = await timed(() =>
          warm(callbackEvent(signed(warmFields)), runningDown(remainingMs)),
        );
        expect(warmResponse.statusCode).toBe(204);
        expect(warmMs).toBeLessThan(attemptTimeoutMs);
        await breakAgain.proxy?.stop();
        rows.push({
          dependency: 'Secrets Manager, no keys known',
          fault: faultNames[fault],
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

describe('EventBridge faults', () => {
  let eventBridge: AwsStandIn;
  beforeAll(async () => {
    eventBridge = await startAwsStandIn();
  });
  afterAll(() => eventBridge.stop());

  let batch = 0;
  function inserts(count: number): DynamoDBRecord[] {
    batch += 1;
    return Array.from({ length: count }, (_, index) =>
      streamRecord(
        'INSERT',
        transactionItem(recordOf(transaction({ reference: `matrix-${batch}-${index}` }))),
      ),
    );
  }

  function consumer() {
    const client = createEventBridgeClient({ timeoutMs: attemptTimeoutMs });
    const publisher = new EventBridgePublisher(client, { attemptTimeoutMs, maxEntryAttempts: 3 });
    return streamConsumerWith(publisher, { timeBudgetMarginMs: marginMs }).handler;
  }

  it.each(faults)(
    'returns the unpublished records as batchItemFailures before the deadline when EventBridge %s',
    async (fault) => {
      const { endpoint, proxy } = await endpointWith(fault, eventBridge.endpoint, 'eventbridge');
      vi.stubEnv('AWS_ENDPOINT_URL_EVENTBRIDGE', endpoint);
      const records = inserts(25);
      const publishedBefore = eventBridge.published.length;
      try {
        const { result, ms } = await timed(() =>
          consumer()({ Records: records }, runningDown(remainingMs)),
        );
        expect(result.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual(
          records.map((record) => record.dynamodb?.SequenceNumber),
        );
        expect(ms).toBeLessThan(remainingMs - marginMs / 2);
        await proxy?.idle();
        const landed = eventBridge.published.length - publishedBefore;
        // Only a call held past its timeout can land; it is reported failed, so the stream's
        // retry publishes those entries again (consumers dedupe by reference).
        expect(landed).toBe(fault === 'delay' ? 10 : 0);
        rows.push({
          dependency: 'EventBridge (stream consumer, 25 records)',
          fault: faultNames[fault],
          answer: '25 batchItemFailures',
          retryAfter: 'n/a',
          maxMs: ms,
          effect:
            fault === 'delay'
              ? 'the 10 entries of the timed-out call landed late (published again on redelivery)'
              : 'nothing published',
        });
      } finally {
        await proxy?.stop();
      }
    },
  );

  it('publishes what fits in the time left and returns the rest, when EventBridge is slow', async () => {
    // Every call answers after 300 ms (inside the attempt timeout): 1,000 ms of budget holds two.
    const proxy = await startFaultProxy({
      upstream: eventBridge.endpoint,
      service: 'eventbridge',
      delayMs: 300,
      plan: () => 'delay',
    });
    vi.stubEnv('AWS_ENDPOINT_URL_EVENTBRIDGE', proxy.endpoint);
    const records = inserts(45);
    const publishedBefore = eventBridge.published.length;
    try {
      const { result, ms } = await timed(() =>
        consumer()({ Records: records }, runningDown(marginMs + 1_000)),
      );
      await proxy.idle();
      const published = eventBridge.published.length - publishedBefore;
      expect(published % 10).toBe(0);
      expect(published).toBeGreaterThan(0);
      expect(result.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual(
        records.slice(published).map((record) => record.dynamodb?.SequenceNumber),
      );
      expect(ms).toBeLessThan(1_000 + marginMs / 2);
      rows.push({
        dependency: 'EventBridge (stream consumer, 45 records)',
        fault: 'every call takes 300 ms, 1,500 ms left',
        answer: `${result.batchItemFailures.length} batchItemFailures`,
        retryAfter: 'n/a',
        maxMs: ms,
        effect: `${published} published once, the rest left for redelivery`,
      });
    } finally {
      await proxy.stop();
    }
  });
});
