import type { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { binCommands, binPath } from '../cli/command-lines.js';

/**
 * The executable's dispatcher run in this process, as `callback-receiver <args>` runs it: the
 * module imported afresh with that argv, its output captured. callback-receiver.test.ts runs the
 * built executable itself; this proves the dispatcher's own choices, quickly.
 */
interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let runs = 0;

class ExitCalled extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

async function dispatch(args: readonly string[]): Promise<Run> {
  const output = { stdout: '', stderr: '' };
  const capture = (sink: 'stdout' | 'stderr') => (chunk: string | Uint8Array) => {
    output[sink] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  };
  const savedArgv = process.argv;
  const savedExitCode = process.exitCode;
  // Outside npm: npm sets the script's name, and usage lines would say `npm run <script> --`.
  vi.stubEnv('npm_lifecycle_event', undefined);
  vi.spyOn(process.stdout, 'write').mockImplementation(capture('stdout'));
  vi.spyOn(process.stderr, 'write').mockImplementation(capture('stderr'));
  // A command's crash report, registered once per process: it must not outlive the run here.
  const emitter: EventEmitter = process;
  const kept = new Set(emitter.listeners('uncaughtException'));
  // `console` ends its process with process.exit: here the run ends there, with its code.
  vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new ExitCalled(Number(code ?? process.exitCode ?? 0));
  });
  process.argv = ['node', binPath, ...args];
  process.exitCode = undefined;
  try {
    runs += 1;
    const url = new URL('../../../scripts/commands/callback-receiver.ts', import.meta.url);
    await import(/* @vite-ignore */ `${url.href}?run=${runs}`);
    return { code: Number(process.exitCode ?? 0), ...output };
  } catch (error) {
    if (!(error instanceof ExitCalled)) throw error;
    return { code: error.code, ...output };
  } finally {
    process.argv = savedArgv;
    process.exitCode = savedExitCode;
    for (const listener of emitter.listeners('uncaughtException')) {
      if (!kept.has(listener)) emitter.off('uncaughtException', listener as () => void);
    }
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('callback-receiver dispatches', () => {
  it('--help, -h and help to the list of commands on stdout, exit 0', async () => {
    const runs = [await dispatch(['--help']), await dispatch(['-h']), await dispatch(['help'])];

    for (const { code, stdout, stderr } of runs) {
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toMatch(/^Usage: callback-receiver <command> \[options\]\n\nCommands:\n/);
      for (const command of binCommands)
        expect(stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
      expect(stdout).toContain(
        "Each command's options and examples: callback-receiver <command> --help",
      );
    }
  });

  it('nothing to "which command?" and the list on stderr, exit 2', async () => {
    const result = await dispatch([]);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^callback-receiver: which command\?\n\nUsage: callback-receiver/,
    );
  });

  it('an unknown command to its name quoted and the list on stderr, exit 2', async () => {
    const result = await dispatch(['qeury', 'list']);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^callback-receiver: unknown command "qeury"\n\nUsage: /);
    expect(result.stderr).toMatch(/^ {2}query {2,}read the recorded callbacks/m);
  });

  it.each(binCommands)(
    '%s with the rest of the arguments: its help names the executable',
    async (command) => {
      const result = await dispatch([command, '--help']);

      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(new RegExp(`^Usage: callback-receiver ${command} `));
      expect(result.stdout).toMatch(
        new RegExp(`\nExamples:\n {2}npx callback-receiver ${command}\\b`),
      );
    },
  );
});
