import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { splitKeys } from '../../lambda/config/config.js';
import type { LocalData } from '../shared/local-data.js';

/** Where the accepted keys came from, for the banner. */
export type KeySource =
  | { readonly kind: 'environment'; readonly count: number }
  | { readonly kind: 'generated'; readonly file?: string; readonly reused: boolean };

export interface ApiKeys {
  readonly keys: readonly string[];
  readonly source: KeySource;
}

/**
 * The keys from `CALLBACK_API_KEYS`, else a development key. The generated key is kept in the
 * data folder, so a restart accepts the key that the gateway simulator or a saved curl line
 * already uses; deleting the folder (or `DATA_DIR=:memory:`) gives a fresh one.
 */
export async function resolveApiKeys(
  fromEnvironment: string | undefined,
  data: LocalData,
): Promise<ApiKeys> {
  const keys = splitKeys(fromEnvironment ?? '');
  if (keys.length > 0) return { keys, source: { kind: 'environment', count: keys.length } };
  if (data.kind === 'memory') {
    return { keys: [generateKey()], source: { kind: 'generated', reused: false } };
  }
  const saved = await readSavedKey(data.devKeyFile);
  if (saved)
    return { keys: [saved], source: { kind: 'generated', file: data.devKeyFile, reused: true } };
  const key = generateKey();
  await writeFile(data.devKeyFile, `${key}\n`, { mode: 0o600 });
  return { keys: [key], source: { kind: 'generated', file: data.devKeyFile, reused: false } };
}

/** Recognisable as a development key wherever it turns up. */
function generateKey(): string {
  return `dev-${randomBytes(16).toString('hex')}`;
}

async function readSavedKey(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
