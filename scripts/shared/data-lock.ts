import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lock } from 'proper-lockfile';

/**
 * Who holds the local data folder. The embedded DynamoDB keeps its files in LevelDB, which only
 * one process may open (a second one hangs rather than failing), so every process that opens it
 * first takes the folder's lock (proper-lockfile: an atomic mkdir kept fresh while held). The
 * holder is described in the state file beside it; a running server also writes its URL, engine
 * endpoint and where its keys come from there, and the other tools find it through that file.
 */
export interface LockOwner {
  readonly pid: number;
  readonly role: 'server' | 'query';
  readonly startedAt: string;
  /** The DynamoDB endpoint of a running server, once it answers. */
  readonly endpoint?: string;
  readonly tableName?: string;
  readonly url?: string;
  /** Where the server's accepted keys come from: its environment, or the saved dev key. */
  readonly keySource?: 'environment' | 'generated';
}

export interface DataLock {
  /** Publishes more about the holder (a server's endpoint, once it is up). */
  update(fields: Partial<LockOwner>): Promise<void>;
  /** Removes the state file and lets go of the folder. Safe to call more than once. */
  release(): Promise<void>;
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
 * Takes the folder of the state file `file`, or waits up to `waitMs` for a live holder to let
 * go. A holder whose process is gone is waited for until its lock goes stale.
 */
export async function acquireDataLock(
  file: string,
  role: LockOwner['role'],
  options: {
    waitMs?: number;
    /** Which live holders are worth waiting for (default all); others fail at once. */
    waitFor?: (holder: LockOwner) => boolean;
  } = {},
): Promise<DataLock> {
  let deadline = Date.now() + (options.waitMs ?? 0);
  let unlock: () => Promise<void>;
  for (;;) {
    try {
      unlock = await lock(dirname(file), {
        lockfilePath: mutexPath(file),
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
    // Written beside and renamed over, so a reader never sees half a file.
    const temporary = `${file}.${randomUUID()}`;
    await writeFile(temporary, `${JSON.stringify(owner, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  };
  await write();
  let released = false;
  return {
    async update(fields) {
      owner = { ...owner, ...fields, pid: process.pid };
      await write();
    },
    async release() {
      if (released) return;
      released = true;
      await rm(file, { force: true });
      await unlock();
    },
  };
}

/** The live holder of the folder, if any. */
export async function readLockOwner(file: string): Promise<LockOwner | undefined> {
  let owner: LockOwner;
  try {
    owner = JSON.parse(await readFile(file, 'utf8')) as LockOwner;
  } catch {
    // Absent, or left torn by a writer that died: nobody to name.
    return undefined;
  }
  return isAlive(owner.pid) ? owner : undefined;
}

function mutexPath(file: string): string {
  return join(dirname(file), '.lock');
}

function isAlive(pid: unknown): boolean {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
