import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DynamoDBClient,
  type GlobalSecondaryIndexDescription,
  ResourceNotFoundException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { transactionsTable } from '../../lambda/storage/table-definition.js';
import { type RunningEngine, startDynalite } from '../dynalite/start.js';
import { createTableInput, refusalsTableInput } from './create-table-input.js';
import type { LocalData } from './local-data.js';

/**
 * The embedded DynamoDB (dynalite) over the data folder, or in memory. The caller must hold the
 * folder's lock (data-lock.ts): LevelDB allows one process per folder.
 */
export function startEmbeddedEngine(data: LocalData): Promise<RunningEngine> {
  return startDynalite(data.kind === 'disk' ? { path: data.engineDir } : {});
}

/** Local engines check no signature, but the SDK insists on a region and some credentials. */
export const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const localRegion = 'us-east-1';

export function localDynamoDbClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: localRegion, credentials: localCredentials });
}

/**
 * Makes sure the table exists with the indexes the code queries. Creates it when missing and
 * `create` is set (a local engine); against AWS a missing table is an error, since the stack owns
 * it. An existing table whose indexes differ from the definition (a data folder made by an older
 * version) is an error either way: writes or queries would fail later, less helpfully.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  options: { create: boolean },
): Promise<'created' | 'exists'> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const drift = schemaDrift(Table?.GlobalSecondaryIndexes ?? []);
    if (drift.length > 0) {
      throw new Error(
        `Table ${tableName} does not match lambda/storage/table-definition.ts (${drift.join('; ')}). ` +
          'It was created by an older version: for local data, delete the data folder (or pick ' +
          'another DATA_DIR or TABLE_NAME) and start again.',
      );
    }
    return 'exists';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    if (!options.create) {
      throw new Error(
        `Table ${tableName} does not exist at this endpoint: check TABLE_NAME (on AWS, deploy the stack).`,
      );
    }
  }
  return createTable(client, createTableInput(tableName));
}

/**
 * Makes sure the refusals table exists beside the transactions table, creating it on a local
 * engine (a data folder from before refusals were kept gets it on its next start).
 */
export async function ensureRefusalsTable(
  client: DynamoDBClient,
  tableName: string,
  options: { create: boolean },
): Promise<'created' | 'exists'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'exists';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    if (!options.create) {
      throw new Error(
        `Refusals table ${tableName} does not exist at this endpoint: set REFUSALS_TABLE_NAME ` +
          '(on AWS, deploy the stack).',
      );
    }
  }
  return createTable(client, refusalsTableInput(tableName));
}

/** Creates a table and waits until it is ACTIVE. */
async function createTable(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
): Promise<'created'> {
  await client.send(new CreateTableCommand(input));
  // Local engines are ACTIVE at once or nearly: the SDK waiter's first check usually settles it.
  await waitUntilTableExists(
    { client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 },
    { TableName: input.TableName },
  );
  return 'created';
}

/** How the table's indexes differ from the definition: missing, or keyed on other attributes. */
function schemaDrift(present: readonly GlobalSecondaryIndexDescription[]): string[] {
  const drift: string[] = [];
  for (const index of transactionsTable.indexes) {
    const found = present.find((candidate) => candidate.IndexName === index.indexName);
    if (!found) {
      drift.push(`index ${index.indexName} is missing`);
      continue;
    }
    const key = (type: 'HASH' | 'RANGE') =>
      found.KeySchema?.find((element) => element.KeyType === type)?.AttributeName;
    if (key('HASH') !== index.partitionKey || key('RANGE') !== index.sortKey) {
      drift.push(
        `index ${index.indexName} keys on ${key('HASH')}/${key('RANGE')}, ` +
          `expected ${index.partitionKey}/${index.sortKey}`,
      );
    }
  }
  return drift;
}
