import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { node24, repositoryRoot } from '../support/node24.js';
import { inScratchDir } from '../support/scratch-dir.js';
import { type ScriptCommand, scriptArguments } from '../support/script-command.js';

export interface CommandRun {
  /** From spawn to the first complete line on stdout; NaN when none came. */
  readonly firstLineMs: number;
  readonly totalMs: number;
  /** The child's own peak resident set (getrusage), bytes. */
  readonly peakRssBytes: number;
  readonly stdoutBytes: number;
  readonly exitCode: number | null;
}

/**
 * Runs a TypeScript command as `npm run` would (Node 24, the tsx loader) in a fresh process and
 * measures it from outside: when its first line arrives, when it ends, and its peak RSS, which
 * the preloaded max-rss-probe.ts writes on exit. Its output is counted, not kept.
 */
export function runCommand(command: ScriptCommand): Promise<CommandRun> {
  return inScratchDir('bench-rss-', async (dir) => {
    const rssFile = join(dir, 'max-rss');
    const started = performance.now();
    const probe = join(repositoryRoot, 'bench', 'support', 'max-rss-probe.ts');
    const child = spawn(node24(), scriptArguments(command, [probe]), {
      cwd: repositoryRoot,
      env: { ...command.env, BENCH_MAX_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let firstLineMs = Number.NaN;
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (Number.isNaN(firstLineMs) && chunk.includes(10))
        firstLineMs = performance.now() - started;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    const [exitCode] = (await once(child, 'close')) as [number | null];
    const totalMs = performance.now() - started;
    const peakRssBytes = Number(await readFile(rssFile, 'utf8').catch(() => 'NaN'));
    if (exitCode !== 0 && exitCode !== 1) {
      const { script, args } = command;
      process.stderr.write(
        `bench: ${script} ${args[0]} exited ${exitCode}: ${stderr.slice(0, 600)}\n`,
      );
    }
    return { firstLineMs, totalMs, peakRssBytes, stdoutBytes, exitCode };
  });
}
