import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { UsageError } from '../cli/cli-errors.js';
import { requestHandler } from '../cli/request-handler.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';
import {
  acquireDataLock,
  DataFolderBusyError,
  type LockOwner,
  readLockOwner,
} from './data-lock.js';
import { startDynalite } from './engine/dynalite.js';
import { engineCredentialsFor, newEngineCredentials } from './engine/engine-credentials.js';
import { ensureTable, localDynamoDbClient } from './engine/local-engine.js';
import type { LocalData } from './local-data.js';

/**
 * Local mode's table as the tools read it. Only local mode reads its lock: the table-access
 * library asks here (scripts/commands/table-target.ts) rather than opening the folder itself.
 */
export interface LocalTable {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** For messages: "the running local server (pid …)", "local data in …". */
  readonly description: string;
  close(): Promise<void>;
}

/**
 * A client for `endpoint`: local mode's embedded engine answers only to the credentials its
 * server wrote in the data folder; another loopback engine (DynamoDB Local) takes any; any other
 * endpoint gets the usual.
 */
export async function engineClient(endpoint: string, data: LocalData): Promise<DynamoDBClient> {
  if (!isLoopbackUrl(endpoint)) return new DynamoDBClient({ endpoint, requestHandler });
  const credentials = await engineCredentialsFor(data, endpoint);
  return localDynamoDbClient(endpoint, { requestHandler, ...(credentials && { credentials }) });
}

/**
 * Local mode's lock as a command already read it (to find the running server's key), so the
 * folder is looked at once: its holder, or undefined when the command found no server.
 */
export interface KnownLock {
  readonly lockOwner: LockOwner | undefined;
}

/** How long to wait for a server that is starting, or another query, to let go of the folder. */
const folderWaitMs = 10_000;

/**
 * Local mode's data folder (`DATA_DIR`): through the running server's engine when `npm start`
 * holds it (LevelDB allows one process), else opened privately under the folder's lock.
 */
export async function openLocalTable(
  data: LocalData,
  tableName: string,
  known?: KnownLock,
): Promise<LocalTable> {
  if (data.kind === 'memory') {
    throw new UsageError(
      'DATA_DIR=:memory: keeps nothing to read. Query a server started with --in-memory with ' +
        'the DATA_DIR its banner printed (its private run folder).',
    );
  }
  const deadline = Date.now() + folderWaitMs;
  let first = known;
  for (;;) {
    // The caller's reading of the lock, once; a folder found busy is read again.
    const owner = first ? first.lockOwner : await readLockOwner(data.lockFile);
    first = undefined;
    if (owner?.role === 'server' && owner.endpoint) {
      const description = `the running local server (pid ${owner.pid})`;
      const client = await engineClient(owner.endpoint, data);
      const close = async () => client.destroy();
      return { client, tableName: owner.tableName ?? tableName, description, close };
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
        // A folder made by an older version would fail later with a cryptic key error: its
        // indexes are brought up to date first (under the lock, so no one reads meanwhile).
        await ensureTable(client, tableName, { create: false, migrate: true }).catch(
          async (error: unknown) => {
            await close();
            throw error;
          },
        );
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
