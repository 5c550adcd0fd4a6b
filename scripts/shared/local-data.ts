import { isAbsolute, join, resolve } from 'node:path';

/**
 * Where local mode keeps its state. One folder holds the embedded DynamoDB's files, the
 * generated development key and the lock file that says who has it open, so `DATA_DIR` moves all three
 * and deleting the folder is a clean reset.
 */
export type LocalData =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'disk';
      readonly dir: string;
      /** The embedded DynamoDB's LevelDB folder. */
      readonly engineDir: string;
      readonly devKeyFile: string;
      /** Who holds the folder; a running server's engine endpoint (see data-lock.ts). */
      readonly lockFile: string;
    };

export const defaultDataDir = '.data';
/** `DATA_DIR=:memory:` keeps everything in memory: a throwaway run that leaves no files. */
export const inMemory = ':memory:';
/** The table local mode creates when `TABLE_NAME` does not name another. */
export const defaultTableName = 'callback-transactions';

/** Resolves `DATA_DIR` (relative to the working directory, which npm sets to the repo root). */
export function localData(dataDir: string | undefined, cwd = process.cwd()): LocalData {
  const value = dataDir?.trim() || defaultDataDir;
  if (value === inMemory) return { kind: 'memory' };
  const dir = isAbsolute(value) ? value : resolve(cwd, value);
  return {
    kind: 'disk',
    dir,
    engineDir: join(dir, 'dynamodb'),
    devKeyFile: join(dir, 'dev-api-key'),
    lockFile: join(dir, 'lock.json'),
  };
}

export function describeLocalData(data: LocalData): string {
  return data.kind === 'memory' ? 'in memory (gone when the server stops)' : data.dir;
}
