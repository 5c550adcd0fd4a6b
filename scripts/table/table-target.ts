import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { refusalsTableName } from '../../lambda/refusals/refusals-table.js';
import { UsageError } from '../cli/cli-errors.js';
import { acquireDataLock, DataFolderBusyError, readLockOwner } from '../local/data-lock.js';
import { startDynalite } from '../local/engine/dynalite.js';
import { engineCredentialsFor, newEngineCredentials } from '../local/engine/engine-credentials.js';
import { ensureTable, localDynamoDbClient } from '../local/engine/local-engine.js';
import { defaultTableName, type LocalData, localData } from '../local/local-data.js';
import { isLoopbackUrl } from '../local/local-target.js';

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

/**
 * Local mode's embedded engine answers only to the credentials its server wrote in the data
 * folder; another loopback engine (DynamoDB Local) takes any; any other endpoint gets the usual.
 */
async function clientFor(endpoint: string, data: LocalData): Promise<DynamoDBClient> {
  if (!isLoopbackUrl(endpoint)) return awsClient(endpoint);
  const credentials = await engineCredentialsFor(data, endpoint);
  return localDynamoDbClient(endpoint, { requestHandler, ...(credentials && { credentials }) });
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
  const data = localData(process.env.DATA_DIR);
  if (endpoint) {
    const client = await clientFor(endpoint, data);
    return remote(client, tableName, `table ${tableName} at ${endpoint}`);
  }
  if (data.kind === 'memory') {
    throw new UsageError(
      'DATA_DIR=:memory: keeps nothing to read. Query a server started with --in-memory with ' +
        'the DATA_DIR its banner printed (its private run folder).',
    );
  }
  const deadline = Date.now() + folderWaitMs;
  for (;;) {
    const owner = await readLockOwner(data.lockFile);
    if (owner?.role === 'server' && owner.endpoint) {
      const description = `the running local server (pid ${owner.pid})`;
      const client = await clientFor(owner.endpoint, data);
      return remote(client, owner.tableName ?? tableName, description);
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
        // Open for this process alone: credentials that never leave it.
        const credentials = newEngineCredentials();
        const engine = await startDynalite(data.engineDir, { credentials }).catch(
          async (error: unknown) => {
            await lock.release();
            throw error;
          },
        );
        const client = localDynamoDbClient(engine.endpoint, { credentials, requestHandler });
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
            'with --in-memory keeps its data to itself: query it with the DATA_DIR its ' +
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
