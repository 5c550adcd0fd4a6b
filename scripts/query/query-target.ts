import { access } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynalite } from '../dynalite/start.js';
import { UsageError } from '../shared/cli-errors.js';
import { acquireDataLock, DataFolderBusyError, readLockOwner } from '../shared/data-lock.js';
import { defaultTableName, type LocalData, localData } from '../shared/local-data.js';
import { ensureTable, localDynamoDbClient } from '../shared/local-engine.js';
import { isLoopbackUrl } from '../shared/local-target.js';

/** Where the queries go, and how to let go of it afterwards. */
export interface QueryTarget {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** For messages: "the running local server", "table x in AWS", … */
  readonly description: string;
  close(): Promise<void>;
}

export interface TargetOptions {
  /** `--table`: a deployed table, through the usual AWS credentials and region. */
  readonly table?: string;
  /** `--endpoint`, else `AWS_ENDPOINT_URL_DYNAMODB`: a DynamoDB-compatible engine. */
  readonly endpoint?: string;
  readonly data: LocalData;
  /** `TABLE_NAME`: the table local mode uses. */
  readonly localTableName?: string;
}

/**
 * Per-attempt bound of every request: a hung connection fails (and the SDK retries it) instead
 * of hanging the command. Without `throwOnRequestTimeout` the SDK only logs a warning.
 */
const requestHandler = { requestTimeout: 10_000, throwOnRequestTimeout: true };

function awsClient(endpoint?: string): DynamoDBClient {
  return new DynamoDBClient({ ...(endpoint ? { endpoint } : {}), requestHandler });
}

/** How long to wait for a server that is starting, or another query, to let go of the folder. */
const folderWaitMs = 10_000;

/**
 * - `--table`: AWS (or `--endpoint`), configured like any AWS CLI tool;
 * - `--endpoint`/`AWS_ENDPOINT_URL_DYNAMODB`: that engine, with local mode's table name;
 * - otherwise local mode's data folder: through the running server's engine when `npm start`
 *   holds the folder (LevelDB allows one process), else opened privately and closed after.
 */
export async function resolveTarget(options: TargetOptions): Promise<QueryTarget> {
  if (options.table) {
    const client = awsClient(options.endpoint);
    return remote(
      client,
      options.table,
      `table ${options.table}${options.endpoint ? ` at ${options.endpoint}` : ''}`,
    );
  }
  const tableName = options.localTableName || defaultTableName;
  if (options.endpoint) {
    const client = isLoopbackUrl(options.endpoint)
      ? localDynamoDbClient(options.endpoint)
      : awsClient(options.endpoint);
    return remote(client, tableName, `table ${tableName} at ${options.endpoint}`);
  }
  const data = options.data;
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
      // A server started with AWS_ENDPOINT_URL_DYNAMODB may write to a remote engine.
      const client = isLoopbackUrl(owner.endpoint)
        ? localDynamoDbClient(owner.endpoint)
        : awsClient(owner.endpoint);
      return remote(
        client,
        owner.tableName ?? tableName,
        `the running local server (pid ${owner.pid})`,
      );
    }
    if (!owner) {
      if (!(await exists(data.engineDir))) {
        throw new Error(
          `No local data in ${data.dir}. Start the server (npm start), send callbacks (npm run ` +
            'simulate), then query; or pass --table for a deployed table.',
        );
      }
      try {
        const lock = await acquireDataLock(data.lockFile, 'query');
        try {
          const engine = await startDynalite(data.engineDir);
          const client = localDynamoDbClient(engine.endpoint);
          try {
            // A folder made by an older version would fail later with a cryptic key error.
            await ensureTable(client, tableName, { create: false });
          } catch (error) {
            client.destroy();
            await engine.stop();
            throw error;
          }
          // No server holds the folder. A server started with --in-memory (DATA_DIR=:memory:)
          // leaves no trace here, so say which data this is rather than show it as the server's.
          process.stderr.write(
            `Reading ${data.dir} directly: no local server is running on it. A server started ` +
              'with --in-memory keeps its data to itself: query it with the --endpoint its ' +
              'banner printed.\n',
          );
          return {
            client,
            tableName,
            description: `local data in ${data.dir}`,
            async close() {
              client.destroy();
              await engine.stop();
              await lock.release();
            },
          };
        } catch (error) {
          await lock.release();
          throw error;
        }
      } catch (error) {
        // Someone took the folder between our look and our lock: look again.
        if (!(error instanceof DataFolderBusyError)) throw error;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(
        `The local data folder ${data.dir} stayed busy (${owner?.role ?? 'unknown'} pid ${owner?.pid ?? '?'}) for ${folderWaitMs / 1000} s.`,
      );
    }
    await sleep(100);
  }
}

function remote(client: DynamoDBClient, tableName: string, description: string): QueryTarget {
  return {
    client,
    tableName,
    description,
    async close() {
      client.destroy();
    },
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Where to read, as every tool's `--table` and `--endpoint` say it. */
export interface TargetFlags {
  /** A deployed table. */
  readonly table?: string;
  readonly endpoint?: string;
}

/**
 * How every tool finds the table: `--table`/`--endpoint` (or `AWS_ENDPOINT_URL_DYNAMODB`), else
 * local mode's data (`DATA_DIR`, `TABLE_NAME`) through {@link resolveTarget}.
 */
export function openTarget(flags: TargetFlags): Promise<QueryTarget> {
  const endpoint = flags.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB;
  return resolveTarget({
    ...(flags.table ? { table: flags.table } : {}),
    ...(endpoint ? { endpoint } : {}),
    data: localData(process.env.DATA_DIR),
    ...(process.env.TABLE_NAME ? { localTableName: process.env.TABLE_NAME } : {}),
  });
}
