import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TransactionFields } from '../../lambda/callback/transaction-fields.js';
import { type HashMode, loadConfig, splitKeys } from '../../lambda/config/config.js';
import { createReceiver } from '../../lambda/create-receiver.js';
import { transactionsTableOf } from '../../lambda/storage/table-definition.js';
import { requestHandler } from '../cli/request-handler.js';
import { localRegion } from '../operations/events/event-envelope.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';
import { createActivityRecorder } from './activity-recorder.js';
import { acquireDataLock } from './data-lock.js';
import { startDynalite } from './engine/dynalite.js';
import { newEngineCredentials, saveEngineCredentials } from './engine/engine-credentials.js';
import { ensureTable, localCredentials } from './engine/local-engine.js';
import { type ForwardEventsOptions, startEventForwarding } from './events/event-forwarding.js';
import { callbackResource, startGatewayServer } from './gateway-server.js';
import { type LocalConsoleOptions, startLocalConsole } from './local-console.js';
import { defaultTableName, type LocalData, localData, readDevKey } from './local-data.js';
import { urlHost } from './local-target.js';

export interface LocalServerOptions {
  /** Default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1: a development server has no business on other interfaces. */
  readonly host?: string;
  /** A folder, or `:memory:`; default `.data`. */
  readonly dataDir?: string;
  readonly tableName?: string;
  /** Comma-separated, like `CALLBACK_API_KEYS`; default a generated development key. */
  readonly apiKeys?: string;
  /** An existing DynamoDB instead of the embedded one; on AWS the tables must exist. */
  readonly endpoint?: string;
  readonly hashMode?: HashMode;
  /** POST every event the stream consumer would publish to this URL (see event-forwarding.ts). */
  readonly forwardEvents?: ForwardEventsOptions;
  /** Serve the operator console too (on 127.0.0.1 whatever `host` is); `npm start` asks for it. */
  readonly console?: LocalConsoleOptions;
  /**
   * The declaration to receive, store and forward with instead of the product's: what a
   * redeploy with a new field does, for the tests that follow a day across one.
   */
  readonly fields?: TransactionFields;
}

export type LocalServer = Awaited<ReturnType<typeof startLocalServer>>;

/**
 * Local mode: the receiver Lambda runs (`createReceiver`, as lambda/receiver.ts builds it) behind
 * a stand-in for API Gateway, over an embedded DynamoDB kept in the data folder. Each call builds
 * its own receiver from its options and the shell's environment, which it only reads.
 */
export async function startLocalServer(options: LocalServerOptions = {}) {
  const data = localData(options.dataDir);
  const tableName = options.tableName ?? defaultTableName;
  // Undone in reverse (HTTP drains before the engine closes, the lock goes last), every step.
  const cleanup: (() => Promise<void>)[] = [];
  const undo = async () => {
    const errors: unknown[] = [];
    for (const step of cleanup.reverse()) await step().catch((error) => errors.push(error));
    if (errors.length > 1) throw new AggregateError(errors, 'Stopping local mode failed');
    if (errors.length === 1) throw errors[0];
  };
  // What the embedded engine answers to: this server's own pair, handed to its clients.
  const engineCredentials = newEngineCredentials();
  try {
    const files = data.kind === 'disk' ? data : await privateRunFolder();
    if (data.kind === 'memory') cleanup.push(() => rm(files.dir, { recursive: true, force: true }));
    const lock = await lockFolder(files.dir, files.lockFile);
    cleanup.push(() => lock.release());
    const keys = await resolveApiKeys(options.apiKeys, files, data.kind === 'memory');

    const { endpoint } = options;
    const engineFolder = data.kind === 'disk' ? data.engineDir : undefined;
    const engine = endpoint
      ? { endpoint, stop: async () => {} }
      : await startDynalite(engineFolder, { credentials: engineCredentials });
    if (!endpoint) {
      // Before the lock file names the endpoint: a tool that finds one finds its credentials.
      cleanup.push(() => rm(files.engineCredentialsFile, { force: true }));
      await saveEngineCredentials(files.engineCredentialsFile, engine.endpoint, engineCredentials);
    }
    cleanup.push(() => engine.stop());
    const isLocalEngine = !endpoint || isLoopbackUrl(endpoint);

    // Where the receiver's and the setup's clients connect, handed to them, never written into
    // the environment: the embedded engine answers to this run's credentials alone, whatever the
    // shell holds; another local engine gets a region and stand-in credentials unless the shell
    // configures its own; an engine on AWS, only its address.
    const ownCredentials = Boolean(process.env.AWS_ACCESS_KEY_ID || process.env.AWS_PROFILE);
    const localRegionFor = { region: process.env.AWS_REGION || localRegion };
    const connection = !endpoint
      ? { endpoint: engine.endpoint, ...localRegionFor, credentials: engineCredentials }
      : isLocalEngine
        ? {
            endpoint,
            ...localRegionFor,
            ...(ownCredentials ? {} : { credentials: localCredentials }),
          }
        : { endpoint };
    const config = loadConfig({
      ...process.env,
      TABLE_NAME: tableName,
      CALLBACK_API_KEYS: keys.keys.join(','),
      ...(options.hashMode ? { HASH_MODE: options.hashMode } : {}),
      // EMF metrics are for CloudWatch; locally they only clutter every log line.
      POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
    });

    // Table set-up and the event stream's reads: a hung engine fails the call, never stalls it.
    const newClient = () => new DynamoDBClient({ ...connection, requestHandler });
    const client = newClient();
    const create = { create: isLocalEngine };
    let tableCreated: boolean;
    try {
      const declared = options.fields && { transactions: transactionsTableOf(options.fields) };
      tableCreated =
        (await ensureTable(client, tableName, { ...create, ...declared })) === 'created';
      await ensureTable(client, config.refusals.tableName, { ...create, table: 'refusals' });
    } finally {
      client.destroy();
    }

    // Before the gateway opens, so the stream starts before the first callback; stopped after
    // it drains, so it sees the last ones.
    const events =
      options.forwardEvents &&
      (await startEventForwarding(
        files.dir,
        { client: newClient(), tableName, ...(options.fields ? { fields: options.fields } : {}) },
        options.forwardEvents,
      ));
    if (events) cleanup.push(() => events.stop());

    const receiver = createReceiver(config, {
      dynamoDb: connection,
      ...(options.fields ? { fields: options.fields } : {}),
    });
    cleanup.push(async () => receiver.close());
    const host = options.host ?? '127.0.0.1';
    // The console's Activity figures: counted in this process, so empty at every start.
    const activity = createActivityRecorder();
    const gateway = await startGatewayServer({
      invoke: receiver.handler,
      host,
      port: options.port ?? 3000,
      stage: 'local',
      onAnswer: (answer) => {
        activity.record(answer);
        // A recorded callback or a kept conflict is an event to forward: look for it now, not
        // at the next pause (wakes collapse into one read).
        events?.wake();
      },
    });
    cleanup.push(() => gateway.close());
    const url = `http://${urlHost(host)}:${gateway.port}${callbackResource}`;
    // Started last, so stopped first: no page reads from an engine that is stopping.
    const consoleServer =
      options.console &&
      (await startLocalConsole(
        {
          connection,
          tableName,
          refusalsTableName: config.refusals.tableName,
          activity,
          ...(events && { eventFiles: events.files }),
          receiver: { url, apiKey: keys.keys[0] as string },
          where: endpoint
            ? `DynamoDB at ${endpoint}`
            : data.kind === 'memory'
              ? 'in memory'
              : `${data.dir}/`,
        },
        options.console,
      ));
    if (consoleServer) cleanup.push(() => consoleServer.close());
    await lock.update({ endpoint: engine.endpoint, tableName, url, keySource: keys.source.kind });

    let stopped: Promise<void> | undefined;
    return {
      url,
      /** The first accepted key, for curl lines and the simulator. */
      apiKey: keys.keys[0] as string,
      keySource: keys.source,
      data,
      /** Where the tools find this server: the data folder, or an in-memory run's own folder. */
      runDir: files.dir,
      tableName,
      engine: { endpoint: engine.endpoint, embedded: !endpoint },
      tableCreated,
      /** Event forwarding, when asked for. */
      events,
      /** Callbacks per minute and latency since this start: the console's `activity`. */
      activity,
      /** The operator console, when asked for: `url` signs in once. */
      console: consoleServer ? consoleServer.console : undefined,
      /** Stops accepting, finishes in-flight callbacks, then closes the engine. Idempotent. */
      stop: () => (stopped ??= undo()),
    };
  } catch (error) {
    await undo().catch(() => {}); // the startup error is the one worth reporting
    throw error;
  }
}

/**
 * An in-memory run keeps no data, but its lock file, engine credentials and generated key need a
 * folder only its owner can open: a fresh one (mkdtemp makes it 0700), removed when it stops.
 */
async function privateRunFolder() {
  const data = localData(await mkdtemp(join(tmpdir(), 'callback-receiver-')));
  if (data.kind === 'memory') throw new Error('unreachable: a folder path is not :memory:');
  return data;
}

/** Names and raw bodies live in the folder: the owner's alone (one made by an older version too). */
async function lockFolder(dir: string, lockFile: string) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  // A query may hold the folder for a moment; another server holds it for good.
  return acquireDataLock(lockFile, 'server', {
    waitMs: 5_000,
    waitFor: (holder) => holder.role === 'query',
  });
}

/** Where the accepted keys came from, for the banner. */
export type KeySource =
  | { readonly kind: 'environment'; readonly count: number }
  | {
      readonly kind: 'generated';
      /** Where the tools read it (never printed in full). */
      readonly file: string;
      readonly reused: boolean;
      /** In an in-memory run's folder: gone when it stops. */
      readonly temporary: boolean;
    };

/**
 * The keys from `CALLBACK_API_KEYS`, else a development key kept in the data folder, so a restart
 * accepts the key the simulator or a saved curl line already uses.
 */
async function resolveApiKeys(
  fromEnvironment: string | undefined,
  files: Extract<LocalData, { kind: 'disk' }>,
  temporary: boolean,
): Promise<{ readonly keys: readonly string[]; readonly source: KeySource }> {
  const keys = splitKeys(fromEnvironment ?? '');
  if (keys.length > 0) return { keys, source: { kind: 'environment', count: keys.length } };
  const file = files.devKeyFile;
  const saved = await readDevKey(files);
  if (saved) return { keys: [saved], source: { kind: 'generated', file, reused: true, temporary } };
  // Recognisable as a development key wherever it turns up.
  const key = `dev-${randomBytes(16).toString('hex')}`;
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return { keys: [key], source: { kind: 'generated', file, reused: false, temporary } };
}
