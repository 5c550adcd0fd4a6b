import { dataFolder, freePort } from './local-cli.js';

export interface LocalDataFolder {
  /** The folder, once the file's tests run. */
  readonly path: string;
  /**
   * The environment `npm start` and the tools run with on this folder: `DATA_DIR`, a fresh free
   * `PORT`, and `more` (e.g. `CALLBACK_API_KEYS`), which wins.
   */
  env(more?: Record<string, string>): Promise<Record<string, string>>;
}

/** A fresh data folder for the calling file's tests (see dataFolder) and local mode's environment on it. */
export function localDataFolder(prefix: string): LocalDataFolder {
  const folder = dataFolder(prefix);
  return {
    get path() {
      return folder.path;
    },
    async env(more = {}) {
      return { DATA_DIR: folder.path, PORT: String(await freePort()), ...more };
    },
  };
}
