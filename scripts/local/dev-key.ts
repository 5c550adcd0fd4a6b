import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { splitKeys } from '../../lambda/config/config.js';
import { type LocalData, readDevKey } from '../shared/local-data.js';

/** Where the accepted keys came from, for the banner. */
export type KeySource =
  | { readonly kind: 'environment'; readonly count: number }
  | { readonly kind: 'generated'; readonly file?: string; readonly reused: boolean };

/**
 * The keys from `CALLBACK_API_KEYS`, else a development key. The generated key is kept in the
 * data folder, so a restart accepts the key that the simulator or a saved curl line already
 * uses; deleting the folder (or `DATA_DIR=:memory:`) gives a fresh one.
 */
export async function resolveApiKeys(
  fromEnvironment: string | undefined,
  data: LocalData,
): Promise<{ readonly keys: readonly string[]; readonly source: KeySource }> {
  const keys = splitKeys(fromEnvironment ?? '');
  if (keys.length > 0) return { keys, source: { kind: 'environment', count: keys.length } };
  const saved = await readDevKey(data);
  if (saved && data.kind === 'disk') {
    return { keys: [saved], source: { kind: 'generated', file: data.devKeyFile, reused: true } };
  }
  // Recognisable as a development key wherever it turns up.
  const key = `dev-${randomBytes(16).toString('hex')}`;
  if (data.kind === 'memory') return { keys: [key], source: { kind: 'generated', reused: false } };
  await writeFile(data.devKeyFile, `${key}\n`, { mode: 0o600 });
  return { keys: [key], source: { kind: 'generated', file: data.devKeyFile, reused: false } };
}
