import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { startDynalite } from '../../scripts/dynalite/start.js';
import { startDynamoDbLocal } from '../../scripts/dynamodb-local/start.js';
import { createTableInput } from '../../scripts/shared/create-table-input.js';
import type { BaselineTables } from '../subjects/baseline.js';

/**
 * The two local engines: DynamoDB Local honours `ReturnValuesOnConditionCheckFailure`, dynalite
 * does not, which is exactly where the request counts of both receivers differ.
 */
export const engineNames = ['DynamoDB Local', 'dynalite'] as const;
export type EngineName = (typeof engineNames)[number];

export interface Engine {
  readonly name: EngineName;
  readonly endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts a fresh engine, or for DynamoDB Local reuses the one named by
 * `BENCH_DYNAMODB_LOCAL_ENDPOINT` (the test run's, so the smoke test does not start a second
 * JVM); a reused engine is left running.
 */
export async function startEngine(name: EngineName): Promise<Engine> {
  const reused = process.env.BENCH_DYNAMODB_LOCAL_ENDPOINT;
  if (name === 'DynamoDB Local' && reused) return { name, endpoint: reused, stop: async () => {} };
  const running = name === 'dynalite' ? await startDynalite() : await startDynamoDbLocal();
  return { name, endpoint: running.endpoint, stop: () => running.stop() };
}

/** Credentials and region the local engines accept; the same for every process of a run. */
export const localAwsEnvironment = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
} as const;

export function engineClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: localAwsEnvironment.AWS_REGION,
    credentials: {
      accessKeyId: localAwsEnvironment.AWS_ACCESS_KEY_ID,
      secretAccessKey: localAwsEnvironment.AWS_SECRET_ACCESS_KEY,
    },
  });
}

export interface BenchTables {
  /** Our transactions table, from the shared table definition. */
  readonly ours: string;
  readonly baseline: BaselineTables;
}

let tableSequence = 0;

/**
 * Fresh tables for one measurement: ours from `createTableInput`, the baseline's transactions
 * table from the same definition (same indexes, so the engine does the same work per item), and
 * the idempotency table Powertools documents (`id` partition key, its default attribute names).
 */
export async function createBenchTables(client: DynamoDBClient): Promise<BenchTables> {
  const suffix = `${process.pid}-${++tableSequence}`;
  const tables = {
    ours: `bench-ours-${suffix}`,
    baseline: {
      transactions: `bench-baseline-${suffix}`,
      idempotency: `bench-idempotency-${suffix}`,
    },
  };
  await Promise.all([
    client.send(new CreateTableCommand(createTableInput(tables.ours))),
    client.send(new CreateTableCommand(createTableInput(tables.baseline.transactions))),
    client.send(
      new CreateTableCommand({
        TableName: tables.baseline.idempotency,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    ),
  ]);
  for (const TableName of [
    tables.ours,
    tables.baseline.transactions,
    tables.baseline.idempotency,
  ]) {
    await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName });
  }
  return tables;
}
