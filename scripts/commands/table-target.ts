import { DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { refusalsTableName } from '../../lambda/refusals/refusals-table.js';
import { requestHandler } from '../cli/request-handler.js';
import { defaultTableName, localData } from '../local/local-data.js';
import { engineClient, type KnownLock, openLocalTable } from '../local/local-table.js';

export type { KnownLock };

import { isLoopbackUrl } from '../operations/events/loopback-url.js';

/** Where the tools read, and how to let go of it afterwards. */
export interface QueryTarget {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** For messages: "the running local server", "table x at …", … */
  readonly description: string;
  close(): Promise<void>;
}

/** `--table` (a deployed table) and `--endpoint`, as every tool that reads the table takes them. */
export interface TargetFlags {
  readonly table?: string;
  readonly endpoint?: string;
}

export function withTableOptions<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
  table = 'a deployed table (AWS_REGION / AWS_PROFILE / credentials as usual)',
) {
  return command
    .option('--table <name>', table)
    .addOption(
      new Option('--endpoint <url>', 'a DynamoDB-compatible endpoint; else local mode data').env(
        'AWS_ENDPOINT_URL_DYNAMODB',
      ),
    );
}

function awsClient(endpoint?: string): DynamoDBClient {
  return new DynamoDBClient({ ...(endpoint ? { endpoint } : {}), requestHandler });
}

/**
 * `--table`: AWS (or `--endpoint`); `--endpoint`/`AWS_ENDPOINT_URL_DYNAMODB`: that engine, with
 * local mode's table name; otherwise local mode's data folder (`DATA_DIR`), as local mode opens
 * it for a tool (local-table.ts).
 */
async function openTarget(flags: TargetFlags, known?: KnownLock): Promise<QueryTarget> {
  const { endpoint } = flags;
  if (flags.table) {
    const where = endpoint ? ` at ${endpoint}` : '';
    return remote(awsClient(endpoint), flags.table, `table ${flags.table}${where}`);
  }
  const tableName = process.env.TABLE_NAME || defaultTableName;
  const data = localData(process.env.DATA_DIR);
  if (endpoint) {
    const client = await engineClient(endpoint, data);
    return remote(client, tableName, `table ${tableName} at ${endpoint}`);
  }
  return openLocalTable(data, tableName, known);
}

/** Runs `use` on the target (or the refusals table beside it), closes it, names a missing table. */
export async function withTarget<T>(
  flags: TargetFlags,
  use: (target: QueryTarget) => Promise<T>,
  table: 'transactions' | 'refusals' = 'transactions',
  known?: KnownLock,
): Promise<T> {
  const target = await openTarget(flags, known);
  const tableName =
    table === 'refusals' && !flags.table
      ? process.env.REFUSALS_TABLE_NAME || refusalsTableName(target.tableName)
      : target.tableName;
  try {
    return await use({ ...target, tableName });
  } catch (error) {
    const local = !flags.table && (!flags.endpoint || isLoopbackUrl(flags.endpoint));
    if (local && refusedCredentials(error)) {
      throw new Error(
        `${target.description} refused this tool's credentials. Local mode's embedded engine ` +
          "answers only to its run's credentials, which the tools read from the data folder " +
          'it was started with: run this with the same DATA_DIR (for --in-memory, the one its ' +
          'banner printed) and without --endpoint.',
        { cause: error },
      );
    }
    if (!(error instanceof ResourceNotFoundException)) throw error;
    throw new Error(`No ${table} table ${tableName} in ${target.description}.`, { cause: error });
  } finally {
    await target.close();
  }
}

/** What DynamoDB (and local mode's engine) answers a request signed with the wrong credentials. */
function refusedCredentials(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  return name === 'UnrecognizedClientException' || name === 'InvalidSignatureException';
}

function remote(client: DynamoDBClient, tableName: string, description: string): QueryTarget {
  return { client, tableName, description, close: async () => client.destroy() };
}
