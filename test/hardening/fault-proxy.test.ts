import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDynamoDbClient } from '../../lambda/storage/dynamodb-client.js';
import {
  defaultFaultKinds,
  type FaultKind,
  faultPlan,
} from '../../scripts/dev/fault-proxy/fault-plan.js';
import { startFaultProxy } from '../../scripts/dev/fault-proxy/fault-proxy.js';
import {
  createTestTable,
  engineEndpoint,
  stubAwsEnvironment,
  type TestTable,
} from '../support/engines.js';
import { storedItem } from '../support/stored-items.js';

/** The fault proxy itself: each fault as the SDK sees it, and its randomness replayable. */
describe('the fault proxy', () => {
  let table: TestTable;

  beforeAll(async () => {
    table = await createTestTable('dynalite');
    stubAwsEnvironment();
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await table.drop();
  });

  /** One PutItem, one attempt, through a proxy that applies `kind` to every request. */
  async function putThrough(kind: FaultKind | 'pass', reference: string) {
    const proxy = await startFaultProxy({
      upstream: engineEndpoint('dynalite'),
      delayMs: 600,
      plan: faultPlan({
        fraction: kind === 'pass' ? 0 : 1,
        seed: 1,
        kinds: kind === 'pass' ? undefined : [kind],
      }),
    });
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', proxy.endpoint);
    // The function's own client, with the function's timeout handling.
    const client = createDynamoDbClient({ timeoutMs: 200 });
    try {
      const outcome = await client
        .send(
          new PutItemCommand({
            TableName: table.tableName,
            Item: { reference: { S: reference }, record: { S: 'probe' } },
          }),
        )
        .then(
          () => 'ok',
          (error: Error) => error.name,
        );
      await proxy.idle();
      const landed = await storedItem(table, { reference });
      return { outcome, landed: landed !== undefined, stats: proxy.stats() };
    } finally {
      client.destroy();
      await proxy.stop();
    }
  }

  it.each([
    ['pass', 'ok', true],
    ['throttle', 'ThrottlingException', false],
    ['server-error', 'InternalServerError', false],
    ['delay', 'TimeoutError', true],
    ['land-then-drop', expect.stringMatching(/Error/), true],
  ] as const)('applies %s: the SDK sees %s; the write lands: %s', async (kind, outcome, landed) => {
    const result = await putThrough(kind, `probe-${kind}-${Date.now()}`);
    expect(result.outcome).toEqual(outcome);
    expect(result.landed).toBe(landed);
    expect(result.stats.byDecision[kind]).toBe(1);
  });

  it('makes the same decisions for the same seed, and about the chosen share of faults', () => {
    const decide = (seed: number) => {
      const plan = faultPlan({ fraction: 0.3, seed });
      return Array.from({ length: 10_000 }, () => plan('PutItem'));
    };
    const first = decide(42);
    expect(decide(42)).toEqual(first);
    expect(decide(43)).not.toEqual(first);
    const faulted = first.filter((decision) => decision !== 'pass').length / first.length;
    expect(faulted).toBeGreaterThan(0.28);
    expect(faulted).toBeLessThan(0.32);
    for (const kind of defaultFaultKinds) expect(first).toContain(kind);
  });

  it('leaves operations outside its list alone', () => {
    const plan = faultPlan({ fraction: 1, seed: 7, operations: ['PutItem'] });
    expect([plan('DescribeTable'), plan('CreateTable'), plan('PutItem')]).toEqual([
      'pass',
      'pass',
      expect.not.stringMatching(/^pass$/),
    ]);
  });
});
