import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lock } from 'proper-lockfile';
import { writeAtomically } from '../cli/atomic-file.js';

/**
 * Who holds the local data folder. LevelDB admits one process (a second one hangs rather than
 * failing), so each takes the folder's lock (proper-lockfile) first and describes itself in the
 * state file beside it; a running server adds its URL, endpoint and key source, which the other
 * tools read to find it.
 */
export interface LockOwner {
  readonly pid: number;
  readonly role: 'server' | 'query';
  readonly startedAt: string;
  readonly endpoint?: string;
  readonly tableName?: string;
  readonly url?: string;
  readonly keySource?: 'environment' | 'generated';
}

export class DataFolderBusyError extends Error {
  override name = 'DataFolderBusyError';
  constructor(
    readonly file: string,
    readonly owner: LockOwner,
  ) {
    super(
      `The local data folder is in use by ${owner.role === 'server' ? 'a running server' : 'a query'} ` +
        `(pid ${owner.pid}, lock file ${file}).`,
    );
  }
}

/** A holder that stops refreshing its lock (killed, crashed) loses it after this long. */
const staleMs = 5_000;

/**
 * Takes the folder of the state file `file`, waiting up to `waitMs` for a live holder that
 * `waitFor` accepts (default any) to let go; others fail at once. A holder whose process is gone
 * is waited for until its lock goes stale.
 */
export async function acquireDataLock(
  file: string,
  role: LockOwner['role'],
  options: { waitMs?: number; waitFor?: (holder: LockOwner) => boolean } = {},
) {
  const folder = dirname(file);
  let deadline = Date.now() + (options.waitMs ?? 0);
  let unlock: () => Promise<void>;
  for (;;) {
    try {
      unlock = await lock(folder, {
        lockfilePath: join(folder, '.lock'),
        stale: staleMs,
        realpath: false,
        onCompromised: (error) =>
          process.stderr.write(`Lost the lock on the local data folder: ${error.message}\n`),
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    const holder = await readLockOwner(file);
    if (!holder) deadline = Math.max(deadline, Date.now() + staleMs + 1_000);
    else if (Date.now() >= deadline || options.waitFor?.(holder) === false) {
      throw new DataFolderBusyError(file, holder);
    }
    await sleep(100);
  }

  let owner: LockOwner = { pid: process.pid, role, startedAt: new Date().toISOString() };
  const write = async () => {
    await writeAtomically(file, `${JSON.stringify(owner, null, 2)}\n`);
  };
  await write();
  let released: Promise<void> | undefined;
  return {
    /** Publishes more about the holder (a server's URL and endpoint, once it answers). */
    update: (fields: Partial<LockOwner>) => {
      owner = { ...owner, ...fields };
      return write();
    },
    /** Removes the state file and lets go of the folder. Safe to call more than once. */
    release: () => (released ??= rm(file, { force: true }).then(() => unlock())),
  };
}

/** The live holder of the folder, if any. */
export async function readLockOwner(file: string): Promise<LockOwner | undefined> {
  // Absent, or left torn by a writer that died: nobody to name.
  const owner = (await readFile(file, 'utf8')
    .then(JSON.parse)
    .catch(() => undefined)) as LockOwner | undefined;
  return isAlive(owner?.pid) ? owner : undefined;
}

function isAlive(pid: unknown): boolean {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, but another user's
  }
}
