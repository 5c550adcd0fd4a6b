import { join } from 'node:path';
import { repositoryRoot } from './node24.js';

/** A TypeScript command as `npm run` runs it: its script (from the repository root), arguments and environment. */
export interface ScriptCommand {
  readonly script: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Node's arguments that run `command` with the tsx loader, as `npm run` would but in one process
 * (no npm, no tsx CLI wrapper), after loading each of `preload`.
 */
export function scriptArguments(command: ScriptCommand, preload: readonly string[] = []): string[] {
  return [
    ...['tsx', ...preload].flatMap((module) => ['--import', module]),
    join(repositoryRoot, command.script),
    ...command.args,
  ];
}
