import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * Where local mode keeps its state: one folder for the engine's files, the dev key, the lock file
 * and the running engine's credentials, so `DATA_DIR` moves them all and deleting the folder is a
 * clean reset.
 */
export type LocalData =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'disk';
      readonly dir: string;
      readonly engineDir: string;
      readonly devKeyFile: string;
      /** The running server's engine credentials (see engine-credentials.ts). */
      readonly engineCredentialsFile: string;
      /** See data-lock.ts. */
      readonly lockFile: string;
    };

/** `DATA_DIR=:memory:`: a throwaway run that leaves no files. */
export const inMemory = ':memory:';
/** The table local mode creates when `TABLE_NAME` does not name another. */
export const defaultTableName = 'callback-transactions';

/** Resolves `DATA_DIR` (default `.data`) against the working directory: npm sets the repo root. */
export function localData(dataDir: string | undefined, cwd = process.cwd()): LocalData {
  const value = dataDir?.trim() || '.data';
  if (value === inMemory) return { kind: 'memory' };
  const dir = resolve(cwd, value);
  const file = (name: string) => resolve(dir, name);
  return {
    kind: 'disk',
    dir,
    engineDir: file('dynamodb'),
    devKeyFile: file('dev-api-key'),
    engineCredentialsFile: file('engine-credentials.json'),
    lockFile: file('lock.json'),
  };
}

/** The dev key `npm start` saved in the folder, if any. */
export async function readDevKey(data: LocalData): Promise<string | undefined> {
  if (data.kind === 'memory') return undefined;
  return (await readFile(data.devKeyFile, 'utf8').catch(() => '')).trim() || undefined;
}
