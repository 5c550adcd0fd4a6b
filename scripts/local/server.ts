/**
 * `npm start`: the receiver on this machine. Configuration comes from the environment, as the
 * function's does: PORT, HOST, DATA_DIR (`:memory:` for a throwaway run), TABLE_NAME,
 * CALLBACK_API_KEYS, HASH_MODE, AWS_ENDPOINT_URL_DYNAMODB (use that engine instead of the
 * embedded one). Flags: --in-memory, --port <n>, --help.
 */
import { parseArgs } from 'node:util';
import { type HashMode, hashModes } from '../../lambda/config/config.js';
import { DataFolderBusyError } from '../shared/data-lock.js';
import { inMemory } from '../shared/local-data.js';
import { banner } from './banner.js';
import { type LocalServer, startLocalServer } from './local-server.js';

const usage = `Usage: npm start [-- --in-memory] [-- --port <n>]

Serves POST /callback with the real Lambda handler and an embedded DynamoDB.

Environment:
  PORT                       port (default 3000; 0 picks a free one)
  HOST                       interface (default 127.0.0.1)
  DATA_DIR                   data folder (default .data; :memory: keeps nothing)
  TABLE_NAME                 table (default callback-transactions)
  CALLBACK_API_KEYS          accepted keys, comma-separated (default: a generated dev key)
  HASH_MODE                  required | if-present | off (default if-present)
  AWS_ENDPOINT_URL_DYNAMODB  use this DynamoDB instead of the embedded one
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'in-memory': { type: 'boolean', default: false },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const env = process.env;
  const port = parsePort(values.port ?? env.PORT ?? '3000');
  const hashMode = parseHashMode(env.HASH_MODE);

  const server = await startLocalServer({
    port,
    ...(env.HOST ? { host: env.HOST } : {}),
    dataDir: values['in-memory'] ? inMemory : env.DATA_DIR,
    ...(env.TABLE_NAME ? { tableName: env.TABLE_NAME } : {}),
    ...(env.CALLBACK_API_KEYS ? { apiKeys: env.CALLBACK_API_KEYS } : {}),
    ...(env.AWS_ENDPOINT_URL_DYNAMODB ? { endpoint: env.AWS_ENDPOINT_URL_DYNAMODB } : {}),
    ...(hashMode ? { hashMode } : {}),
  });
  process.stdout.write(banner(server, hashMode ?? 'if-present'));
  stopOnSignals(server);
}

/**
 * Ctrl-C reaches npm, tsx and this process at once, and tsx relays it again: a repeat within a
 * second is the same stop request. A later one forces the exit.
 */
function stopOnSignals(server: LocalServer): void {
  let firstSignalAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignalAt !== undefined) {
      if (Date.now() - firstSignalAt < 1_000) return;
      process.stderr.write(`${signal} again: exiting without waiting.\n`);
      process.exit(1);
    }
    firstSignalAt = Date.now();
    process.stderr.write(`${signal}: finishing callbacks in flight, then stopping…\n`);
    server.stop().then(
      () => {
        process.stderr.write('Stopped.\n');
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`Stopped with an error: ${describe(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new StartError(`PORT must be 0-65535, got ${value}`);
  return port;
}

function parseHashMode(value: string | undefined): HashMode | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(hashModes as readonly string[]).includes(value)) {
    throw new StartError(`HASH_MODE must be one of ${hashModes.join(', ')}, got ${value}`);
  }
  return value as HashMode;
}

class StartError extends Error {}

function describe(error: unknown): string {
  if (error instanceof DataFolderBusyError) {
    return `${error.message} Stop it first, or give this one its own DATA_DIR.`;
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return `${error.message}: set PORT to a free port (or 0 for any).`;
    return error.message;
  }
  return String(error);
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${describe(error)}\n`);
  process.exit(1);
});
