import { join } from 'node:path';
import { repositoryRoot } from '../cold-start/bundle.js';

/**
 * The Node 24 binary for fresh processes: this one when it is Node 24 or later (npm scripts put
 * the pinned `node` devDependency first on the PATH), else the pinned binary itself, so a run
 * started from an older system Node still measures the runtime Lambda uses.
 */
export function node24(): string {
  const major = Number(process.versions.node.split('.')[0]);
  return major >= 24 ? process.execPath : join(repositoryRoot, 'node_modules', '.bin', 'node');
}

/**
 * A minimal environment for child processes: nothing inherited that could change what is
 * measured (`NODE_OPTIONS` with a TypeScript loader, a test runner's hooks, real AWS settings).
 */
export function cleanEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...extra,
  };
}
