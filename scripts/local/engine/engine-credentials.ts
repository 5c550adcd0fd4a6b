import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeAtomically } from '../../cli/atomic-file.js';
import type { LocalData } from '../local-data.js';

/**
 * The one pair of credentials local mode's embedded engine answers to (see
 * signed-requests-only.ts). Random per run; the tools read them from the data folder, which only
 * the owner can open.
 */
export interface EngineCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** Fresh credentials: an access key id recognisable as local mode's, and a 256-bit secret. */
export function newEngineCredentials(): EngineCredentials {
  return {
    accessKeyId: `LOCALMODE${randomBytes(8).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(32).toString('base64url'),
  };
}

/** What the file holds: the credentials, and which engine they open. */
interface SavedCredentials extends EngineCredentials {
  readonly endpoint: string;
}

/** Written atomically and owner-only, so no reader sees less. */
export async function saveEngineCredentials(
  file: string,
  endpoint: string,
  credentials: EngineCredentials,
): Promise<void> {
  const saved: SavedCredentials = { endpoint, ...credentials };
  await writeAtomically(file, `${JSON.stringify(saved)}\n`);
}

/**
 * The credentials for the engine at `endpoint`, when the data folder holds the ones its running
 * server wrote for it; otherwise none (another run's, a deleted folder, another engine).
 */
export async function engineCredentialsFor(
  data: LocalData,
  endpoint: string,
): Promise<EngineCredentials | undefined> {
  if (data.kind === 'memory') return undefined;
  const saved = (await readFile(data.engineCredentialsFile, 'utf8')
    .then(JSON.parse)
    .catch(() => undefined)) as Partial<SavedCredentials> | undefined;
  const { accessKeyId, secretAccessKey } = saved ?? {};
  if (saved?.endpoint !== endpoint || typeof accessKeyId !== 'string') return undefined;
  return typeof secretAccessKey === 'string' ? { accessKeyId, secretAccessKey } : undefined;
}
