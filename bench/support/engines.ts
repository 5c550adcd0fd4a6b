import { CreateTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { startDynalite } from '../../scripts/dynalite/start.js';
import { startDynamoDbLocal } from '../../scripts/dynamodb-local/start.js';
import { createTableInput, refusalsTableInput } from '../../scripts/shared/create-table-input.js';

/**
 * The two local engines: DynamoDB Local honours `ReturnValuesOnConditionCheckFailure`, dynalite
 * does not, which is exactly where the request counts of both receivers differ.
 */
export type EngineName = 'DynamoDB Local' | 'dynalite';

export interface Engine {
  readonly name: EngineName;
  readonly endpoint: string;
}

/**
 * Runs `work` on a fresh engine, or for DynamoDB Local on the one `BENCH_DYNAMODB_LOCAL_ENDPOINT`
 * names (the test run's, so the smoke test starts no second JVM), which is left running.
 */
export async function withEngine<T>(
  name: EngineName,
  work: (engine: Engine) => Promise<T>,
): Promise<T> {
  const reused = process.env.BENCH_DYNAMODB_LOCAL_ENDPOINT;
  if (name === 'DynamoDB Local' && reused) return work({ name, endpoint: reused });
  const running = name === 'dynalite' ? await startDynalite() : await startDynamoDbLocal();
  try {
    return await work({ name, endpoint: running.endpoint });
  } finally {
    await running.stop();
  }
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

export type BenchTables = Record<'ours' | 'refusals' | 'baseline' | 'idempotency', string>;

let tableSequence = 0;

/**
 * Fresh tables for one measurement: ours and its refusals table as local mode makes them, the
 * baseline's transactions from the same definition (same indexes, so the engine does the same
 * work per item), and the idempotency table Powertools documents (`id` partition key).
 */
export async function createBenchTables(endpoint: string): Promise<BenchTables> {
  const suffix = `${process.pid}-${++tableSequence}`;
  const tables: BenchTables = {
    ours: `bench-ours-${suffix}`,
    refusals: `bench-refusals-${suffix}`,
    baseline: `bench-baseline-${suffix}`,
    idempotency: `bench-idempotency-${suffix}`,
  };
  const client = engineClient(endpoint);
  try {
    await Promise.all(
      [
        createTableInput(tables.ours),
        refusalsTableInput(tables.refusals),
        createTableInput(tables.baseline),
        {
          TableName: tables.idempotency,
          BillingMode: 'PAY_PER_REQUEST' as const,
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' as const }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' as const }],
        },
      ].map(async (input) => {
        await client.send(new CreateTableCommand(input));
        await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: input.TableName });
      }),
    );
  } finally {
    client.destroy();
  }
  return tables;
}
