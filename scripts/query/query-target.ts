import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { refusalsTableName } from '../../lambda/refusals/refusals-table.js';
import { startDynalite } from '../dynalite/start.js';
import { UsageError } from '../shared/cli-errors.js';
import { acquireDataLock, DataFolderBusyError, readLockOwner } from '../shared/data-lock.js';
import { defaultTableName, localData } from '../shared/local-data.js';
import { ensureTable, localDynamoDbClient } from '../shared/local-engine.js';
import { isLoopbackUrl } from '../shared/local-target.js';

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

/** A hung connection fails (and is retried) instead of hanging the command. */
export const requestHandler = { requestTimeout: 10_000, throwOnRequestTimeout: true };

function awsClient(endpoint?: string): DynamoDBClient {
  return new DynamoDBClient({ ...(endpoint ? { endpoint } : {}), requestHandler });
}

/** Local mode's engine answers to local credentials; any other endpoint gets the usual ones. */
function clientFor(endpoint: string): DynamoDBClient {
  return isLoopbackUrl(endpoint) ? localDynamoDbClient(endpoint) : awsClient(endpoint);
}

/** How long to wait for a server that is starting, or another query, to let go of the folder. */
const folderWaitMs = 10_000;

/**
 * `--table`: AWS (or `--endpoint`); `--endpoint`/`AWS_ENDPOINT_URL_DYNAMODB`: that engine, with
 * local mode's table name; otherwise local mode's data folder (`DATA_DIR`): through the running
 * server's engine when `npm start` holds it (LevelDB allows one process), else opened privately.
 */
async function openTarget(flags: TargetFlags): Promise<QueryTarget> {
  const { endpoint } = flags;
  if (flags.table) {
    const where = endpoint ? ` at ${endpoint}` : '';
    return remote(awsClient(endpoint), flags.table, `table ${flags.table}${where}`);
  }
  const tableName = process.env.TABLE_NAME || defaultTableName;
  if (endpoint) return remote(clientFor(endpoint), tableName, `table ${tableName} at ${endpoint}`);
  const data = localData(process.env.DATA_DIR);
  if (data.kind === 'memory') {
    throw new UsageError(
      'DATA_DIR=:memory: keeps nothing to read. Query the running server with --endpoint <the ' +
        'embedded DynamoDB endpoint its banner printed>.',
    );
  }
  const deadline = Date.now() + folderWaitMs;
  for (;;) {
    const owner = await readLockOwner(data.lockFile);
    if (owner?.role === 'server' && owner.endpoint) {
      const description = `the running local server (pid ${owner.pid})`;
      return remote(clientFor(owner.endpoint), owner.tableName ?? tableName, description);
    }
    if (!owner) {
      if (!existsSync(data.engineDir)) {
        throw new Error(
          `No local data in ${data.dir}. Start the server (npm start), send callbacks (npm run ` +
            'simulate), then query; or pass --table for a deployed table.',
        );
      }
      try {
        const lock = await acquireDataLock(data.lockFile, 'query');
        const engine = await startDynalite(data.engineDir).catch(async (error: unknown) => {
          await lock.release();
          throw error;
        });
        const client = localDynamoDbClient(engine.endpoint);
        const close = async () => {
          client.destroy();
          await engine.stop();
          await lock.release();
        };
        // A folder made by an older version would fail later with a cryptic key error.
        await ensureTable(client, tableName, { create: false }).catch(async (error: unknown) => {
          await close();
          throw error;
        });
        // A server started with --in-memory leaves no trace here: say which data this is.
        process.stderr.write(
          `Reading ${data.dir} directly: no local server is running on it. A server started ` +
            'with --in-memory keeps its data to itself: query it with the --endpoint its ' +
            'banner printed.\n',
        );
        return { client, tableName, description: `local data in ${data.dir}`, close };
      } catch (error) {
        // Someone took the folder between our look and our lock: look again.
        if (!(error instanceof DataFolderBusyError)) throw error;
      }
    }
    if (Date.now() > deadline) {
      const holder = `${owner?.role ?? 'unknown'} pid ${owner?.pid ?? '?'}`;
      const seconds = folderWaitMs / 1000;
      throw new Error(
        `The local data folder ${data.dir} stayed busy (${holder}) for ${seconds} s.`,
      );
    }
    await sleep(100);
  }
}

/** Runs `use` on the target (or the refusals table beside it), closes it, names a missing table. */
export async function withTarget<T>(
  flags: TargetFlags,
  use: (target: QueryTarget) => Promise<T>,
  table: 'transactions' | 'refusals' = 'transactions',
): Promise<T> {
  const target = await openTarget(flags);
  const tableName =
    table === 'refusals' && !flags.table
      ? process.env.REFUSALS_TABLE_NAME || refusalsTableName(target.tableName)
      : target.tableName;
  try {
    return await use({ ...target, tableName });
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    throw new Error(`No ${table} table ${tableName} in ${target.description}.`, { cause: error });
  } finally {
    await target.close();
  }
}

function remote(client: DynamoDBClient, tableName: string, description: string): QueryTarget {
  return { client, tableName, description, close: async () => client.destroy() };
}
