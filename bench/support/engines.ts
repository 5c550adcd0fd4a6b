import { CreateTableCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../../scripts/dev/dynamodb-local/start.js';
import { startDynalite } from '../../scripts/local/engine/dynalite.js';
import {
  ensureTable,
  localCredentials,
  localDynamoDbClient,
} from '../../scripts/local/engine/local-engine.js';
import { localRegion } from '../../scripts/operations/events/event-envelope.js';

/**
 * DynamoDB Local honours `ReturnValuesOnConditionCheckFailure`, dynalite does not: exactly where
 * the request counts of the two receivers differ.
 */
export interface Engine {
  readonly name: 'DynamoDB Local' | 'dynalite';
  readonly endpoint: string;
}

/**
 * Runs `work` on a fresh engine, or for DynamoDB Local on the one `BENCH_DYNAMODB_LOCAL_ENDPOINT`
 * names (the test run's, so the smoke test starts no second JVM), which is left running.
 */
export async function withEngine<T>(name: Engine['name'], work: (engine: Engine) => Promise<T>) {
  const reused = process.env.BENCH_DYNAMODB_LOCAL_ENDPOINT;
  if (name === 'DynamoDB Local' && reused) return work({ name, endpoint: reused });
  const running = name === 'dynalite' ? await startDynalite() : await startDynamoDbLocal();
  try {
    return await work({ name, endpoint: running.endpoint });
  } finally {
    await running.stop();
  }
}

/** The same region and credentials for child processes as for this one's clients. */
export const localAwsEnvironment = {
  AWS_REGION: localRegion,
  AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
};

export type BenchTables = Awaited<ReturnType<typeof createBenchTables>>;

let tableSequence = 0;

/**
 * Fresh tables for one measurement: ours as local mode makes them, the baseline's transactions
 * from the same definition (so the engine does the same work per item), and the idempotency
 * table Powertools documents (`id` partition key).
 */
export async function createBenchTables(endpoint: string) {
  const suffix = `${process.pid}-${++tableSequence}`;
  const name = (what: string) => `bench-${what}-${suffix}`;
  const tables = {
    ours: name('ours'),
    refusals: name('refusals'),
    baseline: name('baseline'),
    idempotency: name('idempotency'),
  };
  const client = localDynamoDbClient(endpoint);
  await Promise.all([
    ensureTable(client, tables.ours, { create: true }),
    ensureTable(client, tables.refusals, { create: true, table: 'refusals' }),
    ensureTable(client, tables.baseline, { create: true }),
    client.send(
      new CreateTableCommand({
        TableName: tables.idempotency,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      }),
    ),
  ]);
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tables.idempotency });
  client.destroy();
  return tables;
}
