/**
 * Runs local mode the way a user does: `npm start` in one process group, `npm run simulate` and
 * `npm run query` as separate commands. Every started server is tracked so a failing test can
 * never leave one behind (see killAllServers).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../scripts/local/free-port.js';

export { freePort };

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The environment of a fresh shell: nothing local mode reads is inherited from the test run (the
 * global setup may point AWS_ENDPOINT_URL_DYNAMODB at its own engine).
 */
export function cleanEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'AWS_ENDPOINT_URL_DYNAMODB',
    'TABLE_NAME',
    'CALLBACK_API_KEYS',
    'CALLBACK_API_KEY',
    'CALLBACK_API_KEY_SECRET_ID',
    'HASH_MODE',
    'DATA_DIR',
    'PORT',
    'HOST',
    'FORWARD_EVENTS_URL',
    'CONSOLE_PORT',
  ]) {
    delete env[name];
  }
  return { ...env, ...overrides };
}

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Sends `signal` to the whole process group, as Ctrl-C does, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

/**
 * A fresh data folder for the calling file's tests (`path`, once they run), removed after them
 * with every server they left running killed first.
 */
export function dataFolder(prefix: string): { readonly path: string } {
  const folder = { path: '' };
  beforeAll(async () => {
    folder.path = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    killAllServers();
    await rm(folder.path, { recursive: true, force: true });
  });
  return folder;
}

/** SIGKILLs every server still running: for afterAll/afterEach, and on exit. */
export function killAllServers(): void {
  for (const child of running) killGroup(child, 'SIGKILL');
  running.clear();
}
process.on('exit', killAllServers);

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts `npm start` (or another command line, run by a shell as npm would) and resolves once
 * the banner is out, with the URL it printed.
 */
export async function startServer(
  env: Record<string, string>,
  options: {
    command?: string;
    args?: readonly string[];
    timeoutMs?: number;
    /** What says it is up; its first group is the URL returned. Default: the callback URL. */
    ready?: RegExp;
  } = {},
): Promise<ServerProcess> {
  const child = options.command
    ? spawn(options.command, {
        cwd: repoRoot,
        env: cleanEnv({ ...env, PATH: `${repoRoot}/node_modules/.bin:${process.env.PATH}` }),
        shell: true,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn('npm', ['start', ...(options.args ? ['--', ...options.args] : [])], {
        cwd: repoRoot,
        env: cleanEnv(env),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      done({ code, signal });
    }),
  );

  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let url: string | undefined;
  while (!url) {
    url = (options.ready ?? /POST (http:\/\/\S+\/callback)/).exec(stdout)?.[1];
    if (url) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      killGroup(child, 'SIGKILL');
      throw new Error(`server did not start:\n${stdout}\n${stderr}`);
    }
    await new Promise((done) => setTimeout(done, 25));
  }
  // The banner is written in one piece; wait for its last line.
  while (!stdout.includes('Ctrl-C')) await new Promise((done) => setTimeout(done, 10));

  return {
    url,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop(signal = 'SIGINT') {
      killGroup(child, signal);
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** A callback as the gateway POSTs it: JSON, with the key in `x-api-key`. */
export function postCallback(url: string, key: string, body: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body,
  });
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The npm scripts that run a command of the executable. */
export type Script =
  | 'start'
  | 'simulate'
  | 'query'
  | 'reconcile'
  | 'replay'
  | 'redrive'
  | 'verify'
  | 'resubmit'
  | 'settle'
  | 'console';

/**
 * `npm run -s <script> -- <args>`, as typed in a second shell; `stdin` is piped in. For what
 * only a process of its own shows (signals, a crash, a lock held by another process); the rest
 * runs in this process: runCommand in ./in-process-cli.ts, with the same result.
 */
export function runScript(
  script: Script,
  args: readonly string[],
  env: Record<string, string>,
  stdin = '',
): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = execFile(
      'npm',
      ['run', '-s', script, '--', ...args],
      { cwd: repoRoot, env: cleanEnv(env), timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (error && code === -1)
          fail(new Error(`${script} did not finish: ${error.message}\n${stderr}`));
        else done({ code, stdout, stderr });
      },
    );
    child.stdin?.end(stdin);
  });
}

/**
 * JSON.parse, with every number kept as its source text (a reviver's `context.source`), so a
 * 19-digit id is compared digit for digit.
 */
export function parseExact<T>(text: string): T {
  const reviver = (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined ? context.source : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown) as T;
}
