import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { node24, repositoryRoot } from '../support/node24.js';
import { inScratchDir } from '../support/scratch-dir.js';
import { type ScriptCommand, scriptArguments } from '../support/script-command.js';

export interface CommandFigures {
  /** Wall time of the whole process, seconds. */
  readonly seconds: number;
  /** User + system CPU time, seconds: steadier than wall time on a shared machine. */
  readonly cpuSeconds: number;
  /** Peak resident set of the process, MB (GNU time's %M). */
  readonly peakRssMb: number;
  readonly exitCode: number;
  /** Bytes written to stdout (sent to a file, as `> file` would). */
  readonly stdoutBytes: number;
}

/**
 * Runs `npm run <script> -- args` as an operator would, but as one node process (no npm, no tsx
 * CLI wrapper) under GNU time, stdout into a file: wall time and peak RSS of that process alone.
 */
export function timedCommand(command: ScriptCommand): Promise<CommandFigures> {
  return inScratchDir('bench-tools-', async (dir) => {
    const timeFile = join(dir, 'time');
    const stdoutFile = join(dir, 'stdout');
    const out = createWriteStream(stdoutFile);
    const child = spawn(
      '/usr/bin/time',
      ['-o', timeFile, '-f', '%e %M %U %S', node24(), ...scriptArguments(command)],
      { cwd: repositoryRoot, env: command.env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child.stdout.pipe(out);
    const exitCode = await new Promise<number>((done, fail) => {
      child.on('error', fail);
      child.on('close', (code) => done(code ?? -1));
    });
    await new Promise((done) => out.close(done));
    const [seconds = 'NaN', kb = 'NaN', user = 'NaN', system = 'NaN'] =
      (await readFile(timeFile, 'utf8')).trim().split('\n').at(-1)?.split(' ') ?? [];
    return {
      seconds: Number(seconds),
      cpuSeconds: Number(user) + Number(system),
      peakRssMb: Math.round(Number(kb) / 1024),
      exitCode,
      stdoutBytes: (await stat(stdoutFile)).size,
    };
  });
}
