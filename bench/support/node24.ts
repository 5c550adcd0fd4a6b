import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Node 24 for fresh processes, the runtime Lambda uses: this one when it is 24 or later, else
 * the pinned `node` devDependency, so a run from an older system Node measures the same runtime.
 */
export function node24(): string {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 24 ? process.execPath : join(repositoryRoot, 'node_modules', '.bin', 'node');
}

/** Nothing inherited that could change what a child measures (a loader in NODE_OPTIONS, AWS). */
export function cleanEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra };
}
