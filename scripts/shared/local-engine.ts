import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  DynamoDBClient,
  type KeySchemaElement,
  ResourceNotFoundException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, refusalsTableInput } from './create-table-input.js';

/** Local engines check no signature, but the SDK insists on a region and some credentials. */
export const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' } as const;
export const localRegion = 'us-east-1';

export function localDynamoDbClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: localRegion, credentials: localCredentials });
}

/**
 * Makes sure the transactions table exists with the indexes the code queries: created when
 * missing and `create` is set (a local engine); on AWS the stack owns it, so missing is an error.
 */
export function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  options: { create: boolean },
) {
  return ensure(client, createTableInput(tableName), options.create, 'Table', 'check TABLE_NAME');
}

/** The refusals table beside it (a data folder from before refusals were kept gets it now). */
export function ensureRefusalsTable(
  client: DynamoDBClient,
  tableName: string,
  options: { create: boolean },
) {
  const input = refusalsTableInput(tableName);
  return ensure(client, input, options.create, 'Refusals table', 'set REFUSALS_TABLE_NAME');
}

async function ensure(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
  create: boolean,
  what: string,
  hint: string,
): Promise<'created' | 'exists'> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: input.TableName }));
    // Indexes that differ (a data folder made by an older version) would fail writes or queries
    // later, less helpfully.
    const drift = (input.GlobalSecondaryIndexes ?? []).flatMap(({ IndexName, KeySchema }) => {
      const found = Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === IndexName);
      if (!found) return [`index ${IndexName} is missing`];
      const [expected, actual] = [keys(KeySchema), keys(found.KeySchema)];
      return actual === expected
        ? []
        : [`index ${IndexName} keys on ${actual}, expected ${expected}`];
    });
    if (drift.length > 0) {
      throw new Error(
        `Table ${input.TableName} does not match lambda/storage/table-definition.ts (${drift.join('; ')}). ` +
          'It was created by an older version: for local data, delete the data folder (or pick ' +
          'another DATA_DIR or TABLE_NAME) and start again.',
      );
    }
    return 'exists';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    if (!create) {
      throw new Error(
        `${what} ${input.TableName} does not exist at this endpoint: ${hint} (on AWS, deploy the stack).`,
      );
    }
  }
  await client.send(new CreateTableCommand(input));
  // Local engines are ACTIVE at once or nearly: the SDK waiter's first check usually settles it.
  await waitUntilTableExists(
    { client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 },
    { TableName: input.TableName },
  );
  return 'created';
}

/** `HASH/RANGE` attribute names, as the messages show them. */
function keys(schema: readonly KeySchemaElement[] | undefined): string {
  const key = (type: string) => schema?.find((element) => element.KeyType === type)?.AttributeName;
  return `${key('HASH')}/${key('RANGE')}`;
}
