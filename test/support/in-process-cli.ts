/**
 * Runs a command the way runScript does, in this process: the command's module is imported
 * afresh (a new query string, its own imports shared) with the argv, environment, stdin and
 * output streams of a fresh `npm run -s <script> -- <args>`, and resolves with what it wrote and
 * its exit code once its top level has finished. No npm, no Node start: a run costs what the
 * command does, and coverage sees its code.
 *
 * What cannot be told apart from a child process this way stays on runScript: signals, a crash
 * outside the action (Node's exit 1 turned into 3), a second process holding a lock, a server
 * that keeps running.
 */
import type { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { type CliResult, cleanEnv, repoRoot, type Script } from './local-cli.js';

const modules: Record<Script, string> = {
  start: 'server-command',
  simulate: 'simulate-command',
  query: 'query-command',
  reconcile: 'reconcile-command',
  replay: 'replay-command',
  redrive: 'redrive-command',
  verify: 'verify-command',
  resubmit: 'resubmit-command',
  settle: 'settle-command',
  console: 'console-command',
};

/**
 * What `process.exit` throws during a run, so the run ends there with that code: at a command's
 * top level (console, a failed start). Inside an action runProgram would report it as a crash:
 * those paths (simulate's Ctrl-C) stay on runScript.
 */
class ExitCalled extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

let queue: Promise<unknown> = Promise.resolve();
let runs = 0;

/**
 * `npm run -s <script> -- <args>` in this process; `stdin` is what the command reads on `-`.
 * Runs one at a time: each owns process.argv, process.env and the output streams meanwhile.
 */
export function runCommand(
  script: Script,
  args: readonly string[],
  env: Record<string, string>,
  stdin = '',
  /** Sees each write as it happens, for a test that acts on a long-running command's output. */
  watch?: (text: string) => void,
): Promise<CliResult> {
  const run = queue.then(() => runOnce(script, args, env, stdin, watch));
  queue = run.catch(() => undefined);
  return run;
}

async function runOnce(
  script: Script,
  args: readonly string[],
  env: Record<string, string>,
  stdin: string,
  watch: (text: string) => void = () => {},
): Promise<CliResult> {
  const output = { stdout: '', stderr: '' };
  const restore = [
    replaceArgv(['node', `${repoRoot}/dist/cli/callback-receiver.js`, ...args]),
    // npm names the script it runs: usage lines and hints say `npm run <script> --`.
    replaceEnv(cleanEnv({ ...env, npm_lifecycle_event: script })),
    captureWrites(process.stdout, (text) => {
      output.stdout += text;
      watch(text);
    }),
    captureWrites(process.stderr, (text) => {
      output.stderr += text;
      watch(text);
    }),
    replaceProperty(process, 'stdin', pipedStdin(stdin)),
    replaceProperty(process, 'exit', exitThrows),
    dropAddedListeners(),
  ];
  // `start` narrows the umask for the files it makes: for its own process.
  const umask = process.umask();
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  let code: number;
  try {
    runs += 1;
    const url = new URL(`../../scripts/commands/${modules[script]}.ts`, import.meta.url);
    await withinTime(script, import(/* @vite-ignore */ `${url.href}?run=${runs}`));
    code = Number(process.exitCode ?? 0);
  } catch (error) {
    if (!(error instanceof ExitCalled)) throw error;
    code = error.code;
  } finally {
    process.exitCode = exitCode;
    process.umask(umask);
    for (const undo of restore.reverse()) undo();
  }
  return { code, ...output };
}

/** runScript's limit: a command still running after a minute fails its test, not the rest. */
async function withinTime(script: Script, run: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${script} did not finish in 60 s`)), 60_000);
  });
  try {
    await Promise.race([run, late]);
  } finally {
    clearTimeout(timer);
  }
}

function exitThrows(code?: number | string | null): never {
  throw new ExitCalled(Number(code ?? process.exitCode ?? 0));
}

/**
 * The process-wide handlers a command adds (runProgram's crash report, Ctrl-C) belong to its
 * process: here they would outlive the run and call process.exit in the test's worker.
 */
function dropAddedListeners(): () => void {
  const emitter: EventEmitter = process;
  const events = ['uncaughtException', 'unhandledRejection', 'SIGINT', 'SIGTERM', 'SIGHUP'];
  const before = events.map((event) => ({ event, kept: new Set(emitter.listeners(event)) }));
  return () => {
    for (const { event, kept } of before) {
      for (const listener of emitter.listeners(event)) {
        if (!kept.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
      }
    }
  };
}

function replaceArgv(argv: string[]): () => void {
  const saved = process.argv;
  process.argv = argv;
  return () => {
    process.argv = saved;
  };
}

/** Sets process.env to `env` in place (it is Node's own object), and back afterwards. */
function replaceEnv(env: NodeJS.ProcessEnv): () => void {
  const saved = { ...process.env };
  const set = (values: NodeJS.ProcessEnv) => {
    for (const name of Object.keys(process.env)) if (!(name in values)) delete process.env[name];
    for (const [name, value] of Object.entries(values)) {
      if (value !== undefined) process.env[name] = value;
    }
  };
  set(env);
  return () => set(saved);
}

/** The stream's writes go to `sink`, as a pipe to the test would take them; not a terminal. */
function captureWrites(stream: NodeJS.WriteStream, sink: (text: string) => void): () => void {
  const write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (done) process.nextTick(done);
    return true;
  };
  const undo = [
    replaceProperty(stream, 'write', write),
    replaceProperty(stream, 'isTTY', false),
    replaceProperty(stream, 'columns', undefined),
  ];
  return () => {
    for (const step of undo.reverse()) step();
  };
}

/** The child's stdin: `text`, then the end. */
function pipedStdin(text: string): Readable {
  return Readable.from(text === '' ? [] : [Buffer.from(text, 'utf8')], { objectMode: false });
}

/** Defines `name` on `target` as `value`, and puts back what was there (or nothing). */
function replaceProperty<T extends object>(target: T, name: string, value: unknown): () => void {
  const saved = Object.getOwnPropertyDescriptor(target, name);
  Object.defineProperty(target, name, { value, configurable: true, writable: true });
  return () => {
    if (saved) Object.defineProperty(target, name, saved);
    else delete (target as Record<string, unknown>)[name];
  };
}
