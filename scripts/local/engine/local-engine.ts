import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type DynamoDBClientConfig,
  type KeySchemaElement,
  ResourceNotFoundException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import {
  searchIndexNames,
  type TableDefinition,
} from '../../../lambda/storage/table-definition.js';
import { localRegion } from '../../operations/events/event-envelope.js';
import { createTableInput, refusalsTableInput } from './create-table-input.js';
import { migrateTable } from './table-migration.js';
import { foldUsernameKeys } from './username-keys.js';

/** An engine started for a run: local mode's dynalite, or the tests' DynamoDB Local. */
export interface RunningEngine {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  /** Idempotent. */
  stop(): Promise<void>;
}

/**
 * For engines that check no signature (DynamoDB Local, the tests' dynalite), where the SDK still
 * insists on a region and some credentials. Local mode's embedded engine takes only its run's
 * credentials (engine-credentials.ts), passed in `config`.
 */
export const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export function localDynamoDbClient(endpoint: string, config: DynamoDBClientConfig = {}) {
  return new DynamoDBClient({
    credentials: localCredentials,
    ...config,
    endpoint,
    region: localRegion,
  });
}

/** What local mode creates where CDK does not, and what a missing one's message points at. */
const tables = {
  transactions: {
    input: createTableInput,
    name: 'Table',
    setting: 'check TABLE_NAME',
    definition: 'lambda/storage/table-definition.ts',
  },
  refusals: {
    input: refusalsTableInput,
    name: 'Refusals table',
    setting: 'set REFUSALS_TABLE_NAME',
    definition: 'lambda/refusals/refusals-table.ts',
  },
};

/**
 * Makes sure a table exists with the indexes the code queries: created when missing on a local
 * engine (`create`), and there (`migrate`, @default `create`) its indexes brought to the
 * definition's, one at a time (table-migration.ts), so data made under an older declaration
 * opens; on AWS the stack owns them, so a missing one is an error.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  options: {
    create: boolean;
    migrate?: boolean;
    table?: keyof typeof tables;
    /** The transactions table as a declaration other than the product's defines it. */
    transactions?: TableDefinition;
  },
): Promise<'created' | 'migrated' | 'exists'> {
  const { input: inputFor, name, setting, definition } = tables[options.table ?? 'transactions'];
  const input =
    options.transactions && (options.table ?? 'transactions') === 'transactions'
      ? createTableInput(tableName, options.transactions)
      : inputFor(tableName);
  if (options.migrate ?? options.create) {
    const changes = await migrateTable(client, input);
    if (changes.length > 0 && (options.table ?? 'transactions') === 'transactions') {
      const folded = await foldUsernameKeys(client, tableName);
      if (folded > 0) changes.push(`${folded} username keys put in lower case`);
    }
    if (changes.length > 0) {
      process.stderr.write(
        `Table ${tableName}: indexes brought to ${definition} (${changes.join(', ')}).\n`,
      );
      return 'migrated';
    }
  }
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: input.TableName }));
    // Indexes that differ (a table made by an older version) would fail writes or queries
    // later, less helpfully.
    const drift = (input.GlobalSecondaryIndexes ?? []).flatMap(({ IndexName, KeySchema }) => {
      const found = Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === IndexName);
      // A stack deployed before search gains those indexes one deploy at a time; until then the
      // search says what it could not search, and everything else works.
      if (!found && isSearchIndex(IndexName)) return [];
      if (!found) return [`index ${IndexName} is missing`];
      const [expected, actual] = [keys(KeySchema), keys(found.KeySchema)];
      return actual === expected
        ? []
        : [`index ${IndexName} keys on ${actual}, expected ${expected}`];
    });
    if (drift.length > 0) {
      throw new Error(
        `Table ${input.TableName} does not match ${definition} (${drift.join('; ')}). ` +
          'It was made by an older version: deploy the stack, one index change at a time ' +
          '(docs/deploy.md, "Changing indexes").',
      );
    }
    return 'exists';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    if (!options.create) {
      throw new Error(
        `${name} ${tableName} does not exist at this endpoint: ${setting} (on AWS, deploy the stack).`,
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

function isSearchIndex(name: string | undefined): boolean {
  return (searchIndexNames as readonly (string | undefined)[]).includes(name);
}
