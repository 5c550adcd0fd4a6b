/** `npm start`: the receiver on this machine, configured by the environment as the function is. */
import { Option } from '@commander-js/extra-typings';
import { type HashMode, hashModes } from '../../lambda/config/config.js';
import { UsageError } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { banner } from '../local/banner.js';
import { DataFolderBusyError } from '../local/data-lock.js';
import { checkPortFree } from '../local/free-port.js';
import { inMemory } from '../local/local-data.js';
import { isLoopbackHost } from '../local/local-target.js';
import { type LocalServer, startLocalServer } from '../local/server.js';
import {
  allowRemoteOption,
  checkForwardTarget,
  forwardUrl,
} from '../operations/events/forward-destination.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';

const program = commandProgram(
  'start',
  'Serves POST /callback with the real Lambda handler and an embedded DynamoDB.',
  { ok: 'stopped cleanly (Ctrl-C, SIGTERM)' },
)
  .option('--in-memory', 'keep nothing: the same as DATA_DIR=:memory:', false)
  .addOption(
    new Option('--port <n>', 'port (0 picks a free one)')
      .env('PORT')
      .default(3000)
      .argParser((value) => parsePort(value, 'the port (--port or PORT)')),
  )
  .addOption(
    new Option('--console-port <n>', "the operator console's port on 127.0.0.1 (0: any free one)")
      .env('CONSOLE_PORT')
      .default(0)
      .argParser((value) => parsePort(value, 'the console port (--console-port or CONSOLE_PORT)')),
  )
  .option('--no-console', 'do not serve the operator console (docs/console.md)')
  .addOption(
    new Option(
      '--forward-events <url>',
      'POST every event the deployed stack would publish to this URL (docs/events.md)',
    )
      .env('FORWARD_EVENTS_URL')
      .argParser((value) => forwardUrl(value, '--forward-events (or FORWARD_EVENTS_URL)')),
  )
  .addOption(allowRemoteOption())
  .option(
    '--rotate-forwarding-secret',
    'sign forwarded events with a new secret (the kept one stops verifying)',
    false,
  )
  .option('--quiet', 'forwarding: no line per delivered event or retry (dead letters still)', false)
  .addHelpText(
    'after',
    `
Environment:
  HOST                       interface (default 127.0.0.1; others get a warning, see docs/local-mode.md)
  DATA_DIR                   data folder (default .data; :memory: keeps nothing)
  TABLE_NAME                 table (default callback-transactions)
  CALLBACK_API_KEYS          accepted keys, comma-separated (default: a generated dev key)
  HASH_MODE                  ${hashModes.join(' | ')} (default if-present)
  AWS_ENDPOINT_URL_DYNAMODB  use this DynamoDB instead of the embedded one`,
  )
  .action(start);

async function start(options: {
  inMemory: boolean;
  port: number;
  consolePort: number;
  console: boolean;
  forwardEvents?: string;
  allowRemote: boolean;
  rotateForwardingSecret: boolean;
  quiet: boolean;
}): Promise<void> {
  const { HOST, DATA_DIR, TABLE_NAME, CALLBACK_API_KEYS, AWS_ENDPOINT_URL_DYNAMODB } = process.env;
  const hashMode = process.env.HASH_MODE || undefined;
  if (hashMode && !(hashModes as readonly string[]).includes(hashMode)) {
    throw new UsageError(`HASH_MODE must be one of ${hashModes.join(', ')}, got ${hashMode}`);
  }
  if (options.forwardEvents) {
    checkForwardTarget(options.forwardEvents, '--forward-events', options.allowRemote);
  }
  if (
    options.forwardEvents &&
    AWS_ENDPOINT_URL_DYNAMODB &&
    !isLoopbackUrl(AWS_ENDPOINT_URL_DYNAMODB)
  ) {
    // Forwarding reads the table every second and after each callback: fine on this machine,
    // not on AWS, where the deployed stream consumer publishes anyway.
    throw new UsageError(
      '--forward-events reads the table continuously: use it with a local engine, not AWS_ENDPOINT_URL_DYNAMODB on AWS',
    );
  }
  const host = HOST || '127.0.0.1';
  const dataDir = options.inMemory ? inMemory : DATA_DIR;
  const exposed = !isLoopbackHost(host);
  // Names and raw bodies go to disk: files for the owner alone, whatever the shell's umask.
  process.umask(0o077);

  // Before the data folder and its dev key are made: a busy port fails with nothing created.
  if (options.port !== 0) {
    await checkPortFree(host, options.port).catch((error: unknown) => {
      throw new Error(describe(error), { cause: error });
    });
  }
  const server = await startLocalServer({
    port: options.port,
    host,
    dataDir,
    ...(TABLE_NAME && { tableName: TABLE_NAME }),
    ...(CALLBACK_API_KEYS && { apiKeys: CALLBACK_API_KEYS }),
    ...(AWS_ENDPOINT_URL_DYNAMODB && { endpoint: AWS_ENDPOINT_URL_DYNAMODB }),
    ...(hashMode && { hashMode: hashMode as HashMode }),
    ...(options.forwardEvents && {
      forwardEvents: {
        url: options.forwardEvents,
        quiet: options.quiet,
        rotateSecret: options.rotateForwardingSecret,
      },
    }),
    ...(options.console && { console: { port: options.consolePort } }),
  }).catch((error: unknown) => {
    throw new Error(describe(error), { cause: error });
  });
  if (exposed) {
    process.stderr.write(
      `Warning: HOST=${host} serves plain HTTP to the network; anyone who can reach this port ` +
        'can send callbacks with the key.\n',
    );
  }
  const dataDirSetting = DATA_DIR || undefined;
  process.stdout.write(
    banner(server, { hashMode: hashMode ?? 'if-present', exposed, dataDirSetting }),
  );
  stopOnSignals(server);
}

/**
 * Ctrl-C reaches npm and this process at once, and npm relays it again: a repeat within a second
 * is the same stop request; a later one forces the exit. SIGTERM may reach npm alone: npm relays
 * it. If npm itself dies without relaying (SIGKILL), this process is re-parented: it stops too.
 */
function stopOnSignals(server: LocalServer): void {
  const exit = (message: string, code: number): never => {
    process.stderr.write(message);
    process.exit(code);
  };
  let firstSignalAt: number | undefined;
  const stop = (why: string) => {
    if (firstSignalAt !== undefined) {
      if (Date.now() - firstSignalAt < 1_000) return;
      exit(`${why} again: exiting without waiting.\n`, exitCodes.failed);
    }
    firstSignalAt = Date.now();
    process.stderr.write(`${why}: finishing callbacks in flight, then stopping…\n`);
    server.stop().then(
      () => exit('Stopped.\n', exitCodes.ok),
      (error: unknown) => exit(`Stopped with an error: ${describe(error)}\n`, exitCodes.failed),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('npm start has gone');
  }, 1_000).unref();
}

function parsePort(value: string, name: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new UsageError(`${name} must be 0-65535, got ${value}`);
  }
  return port;
}

/** The failure, with what to do about the ones a user meets. */
function describe(error: unknown): string {
  const advice: Record<string, string> = {
    EADDRINUSE: ': set PORT to a free port (or 0 for any).',
    EADDRNOTAVAIL: ': HOST is not an address of this machine.',
  };
  if (error instanceof DataFolderBusyError) {
    return `${error.message} Stop it first, or give this one its own DATA_DIR.`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  return error instanceof Error ? `${error.message}${advice[code] ?? ''}` : String(error);
}

withExamples(program, [
  'start',
  'start --in-memory --port 3011',
  'start --forward-events http://127.0.0.1:9000/events',
]);

await runProgram(program, 'start');
// A start that failed has said why in one line; nothing of it may keep the process alive.
if (process.exitCode) process.exit();
