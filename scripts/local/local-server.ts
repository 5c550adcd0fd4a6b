import { chmod, mkdir } from 'node:fs/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { HashMode } from '../../lambda/config/config.js';
import { refusalsTableName } from '../../lambda/refusals/refusals-table.js';
import { acquireDataLock, type DataLock } from '../shared/data-lock.js';
import { defaultTableName, type LocalData, localData } from '../shared/local-data.js';
import {
  ensureRefusalsTable,
  ensureTable,
  localCredentials,
  localDynamoDbClient,
  localRegion,
  startEmbeddedEngine,
} from '../shared/local-engine.js';
import { isLoopbackUrl } from '../shared/local-target.js';
import { callbackResource } from './api-gateway-routes.js';
import { type KeySource, resolveApiKeys } from './dev-key.js';
import { type Invoke, startGatewayServer } from './gateway-server.js';

export interface LocalServerOptions {
  /** Default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: a development server has no business on other interfaces. */
  readonly host?: string;
  /** A folder, or `:memory:`; default `.data`. */
  readonly dataDir?: string;
  /** Default `callback-transactions`. */
  readonly tableName?: string;
  /** Comma-separated, like `CALLBACK_API_KEYS`; default a generated development key. */
  readonly apiKeys?: string;
  /**
   * An existing DynamoDB endpoint (DynamoDB Local, or AWS): no embedded engine is started. Local
   * endpoints get the table created; on AWS it must exist.
   */
  readonly endpoint?: string;
  readonly hashMode?: HashMode;
  /** `requestContext.stage` in the events; default `local`. */
  readonly stage?: string;
}

export interface LocalServer {
  /** The callback URL, e.g. `http://127.0.0.1:3000/callback`. */
  readonly url: string;
  readonly port: number;
  /** The first accepted key, for curl lines and the simulator. */
  readonly apiKey: string;
  readonly keySource: KeySource;
  readonly data: LocalData;
  readonly tableName: string;
  readonly engine: { readonly endpoint: string; readonly embedded: boolean };
  readonly tableCreated: boolean;
  /** Stops accepting, finishes in-flight callbacks, then closes the engine. Idempotent. */
  stop(): Promise<void>;
}

let handlerLoads = 0;

/**
 * Local mode: the real Lambda handler (lambda/receiver.ts) behind a stand-in for API Gateway,
 * over an embedded DynamoDB kept in the data folder. The handler reads its configuration from the
 * environment when it is imported, so this sets `process.env` first and imports it after; each
 * call imports a fresh instance, so servers with different settings can run in one process.
 */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<LocalServer> {
  const data = localData(options.dataDir);
  const tableName = options.tableName ?? defaultTableName;
  const cleanup: (() => Promise<void>)[] = [];
  // Every step runs even if one fails; the failures are reported together.
  const undo = async () => {
    const errors: unknown[] = [];
    for (const step of cleanup.reverse())
      await step().catch((error: unknown) => errors.push(error));
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Stopping local mode failed');
  };
  try {
    let lock: DataLock | undefined;
    if (data.kind === 'disk') {
      // Names and raw bodies live here: the owner's alone (a folder made by an older version too).
      await mkdir(data.dir, { recursive: true, mode: 0o700 });
      await chmod(data.dir, 0o700);
      // A query may hold the folder for a moment; another server holds it for good.
      lock = await acquireDataLock(data.lockFile, 'server', {
        waitMs: 5_000,
        waitFor: (holder) => holder.role === 'query',
      });
      cleanup.push(() => (lock as DataLock).release());
    }
    const keys = await resolveApiKeys(options.apiKeys, data);

    const engine = options.endpoint
      ? { endpoint: options.endpoint, stop: async () => {} }
      : await startEmbeddedEngine(data);
    cleanup.push(() => engine.stop());
    const external = options.endpoint !== undefined;
    const isLocalEngine = !external || isLoopbackUrl(options.endpoint as string);

    // Set before the handler is imported: it reads them once, at import.
    process.env.TABLE_NAME = tableName;
    process.env.CALLBACK_API_KEYS = keys.keys.join(',');
    process.env.AWS_ENDPOINT_URL_DYNAMODB = engine.endpoint;
    if (options.hashMode) process.env.HASH_MODE = options.hashMode;
    // EMF metrics are for CloudWatch; locally they would double every log line.
    process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
    if (isLocalEngine) {
      process.env.AWS_REGION ??= localRegion;
      if (!process.env.AWS_ACCESS_KEY_ID && !process.env.AWS_PROFILE) {
        process.env.AWS_ACCESS_KEY_ID = localCredentials.accessKeyId;
        process.env.AWS_SECRET_ACCESS_KEY = localCredentials.secretAccessKey;
      }
    }

    const client = isLocalEngine ? localDynamoDbClient(engine.endpoint) : new DynamoDBClient({});
    let tableCreated: boolean;
    try {
      tableCreated =
        (await ensureTable(client, tableName, { create: isLocalEngine })) === 'created';
      await ensureRefusalsTable(
        client,
        process.env.REFUSALS_TABLE_NAME || refusalsTableName(tableName),
        { create: isLocalEngine },
      );
    } finally {
      client.destroy();
    }

    const invoke = await importHandler();
    const host = options.host ?? '127.0.0.1';
    const gateway = await startGatewayServer({
      invoke,
      host,
      port: options.port ?? 3000,
      stage: options.stage ?? 'local',
    });
    cleanup.push(() => gateway.close());
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${gateway.port}${callbackResource}`;
    await lock?.update({
      endpoint: engine.endpoint,
      tableName,
      url,
      keySource: keys.source.kind,
    });

    let stopped: Promise<void> | undefined;
    return {
      url,
      port: gateway.port,
      apiKey: keys.keys[0] as string,
      keySource: keys.source,
      data,
      tableName,
      engine: { endpoint: engine.endpoint, embedded: !external },
      tableCreated,
      stop: () => {
        // In order: the HTTP side drains first, so every acknowledged write is in the engine
        // before the engine closes (and LevelDB flushes); the lock goes last.
        stopped ??= undo();
        return stopped;
      },
    };
  } catch (error) {
    // The startup error is the one worth reporting.
    await undo().catch(() => {});
    throw error;
  }
}

async function importHandler(): Promise<Invoke> {
  handlerLoads += 1;
  // A query string makes each import a fresh module instance, which reads the environment anew.
  const specifier = `../../lambda/receiver.js${handlerLoads > 1 ? `?instance=${handlerLoads}` : ''}`;
  const module = (await import(specifier)) as { handler: Invoke };
  return module.handler;
}
