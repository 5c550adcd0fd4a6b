/**
 * The DynamoDB engines every integration test runs on, started once per run by
 * test/support/global-setup.ts. Use:
 *
 *   describe.each(engines)('the store on %s', (engine) => {
 *     let table: TestTable;
 *     beforeAll(async () => { table = await createTestTable(engine); });
 *     afterAll(() => table.drop());
 *     it('...', async () => { await table.client.send(...); });
 *   });
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { describe, inject } from 'vitest';
import type { TableDefinition } from '../../lambda/storage/table-definition.js';
import {
  createTableInput,
  refusalsTableInput,
} from '../../scripts/local/engine/create-table-input.js';

/**
 * dynalite ignores `ReturnValuesOnConditionCheckFailure` (no old item on a failed condition);
 * DynamoDB Local returns it, as AWS does. Code that must work on both is tested on both.
 */
export const engineNames = ['dynalite', 'dynamodb-local'] as const;
export type Engine = (typeof engineNames)[number];

export interface EngineEndpoint {
  readonly name: Engine;
  readonly endpoint: string;
}

const provided: readonly EngineEndpoint[] = inject('dynamoDbEngines') ?? [];
if (provided.length === 0) {
  throw new Error(
    'No DynamoDB engines provided: run the tests with vitest.config.ts, whose globalSetup starts them',
  );
}

/** The engines of this run: both, or only dynalite when Java is absent (the setup says so). */
export const engines: readonly Engine[] = provided.map((engine) => engine.name);

/** `describe.each(engines)('on %s', fn)`, for suites that need nothing else in the name. */
export function forEachEngine(fn: (engine: Engine) => void): void {
  describe.each(engines)('on %s', fn);
}

export function engineEndpoint(engine: Engine): string {
  const found = provided.find((candidate) => candidate.name === engine);
  if (found === undefined) throw new Error(`Engine ${engine} was not started for this run`);
  return found.endpoint;
}

import { testCredentials, testRegion } from './aws-environment.js';

export { stubAwsEnvironment, testCredentials, testRegion } from './aws-environment.js';

/** What any SDK client needs to reach the engine (DynamoDB, or its streams). */
export function engineClientConfig(engine: Engine) {
  return { endpoint: engineEndpoint(engine), region: testRegion, credentials: testCredentials };
}

/** A client for the engine (its own connection pool; call `destroy()` when done). */
export function createTestClient(engine: Engine): DynamoDBClient {
  return new DynamoDBClient(engineClientConfig(engine));
}

export interface TestTable {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** Deletes the table and closes the client; optional, the engines die with the run anyway. */
  drop(): Promise<void>;
}

/**
 * A new, uniquely named table built from the shared definition (same keys and indexes as the
 * stack), ACTIVE when returned. Each suite gets its own, so suites and engines never share data.
 */
export async function createTestTable(
  engine: Engine,
  definition?: TableDefinition,
): Promise<TestTable> {
  return createTable(engine, createTableInput(`test-${randomUUID()}`, definition));
}

/** A new refusals table (see lambda/refusals/refusals-table.ts), ACTIVE when returned. */
export async function createTestRefusalsTable(engine: Engine): Promise<TestTable> {
  return createTable(engine, refusalsTableInput(`test-refusals-${randomUUID()}`));
}

async function createTable(engine: Engine, input: CreateTableCommandInput): Promise<TestTable> {
  const client = createTestClient(engine);
  const tableName = input.TableName as string;
  await client.send(new CreateTableCommand(input));
  await waitUntilActive(client, tableName);
  return {
    client,
    tableName,
    async drop() {
      try {
        await client.send(new DeleteTableCommand({ TableName: tableName }));
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      } finally {
        client.destroy();
      }
    },
  };
}

/** Both engines are quick (dynalite is told to be); polling beats the SDK waiter's 20 s delay. */
async function waitUntilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every(
      (index) => index.IndexStatus === 'ACTIVE',
    );
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} is not ACTIVE after 10 s`);
    await sleep(20);
  }
}
