import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Who holds the local data folder. The embedded DynamoDB keeps its files in LevelDB, which only
 * one process may open (a second one hangs rather than failing), so every process that opens it
 * first creates this file; a running server also writes its engine's endpoint here, and the query
 * tool goes through that endpoint instead of opening the files itself.
 */
export interface LockOwner {
  readonly pid: number;
  readonly role: 'server' | 'query';
  readonly startedAt: string;
  /** The DynamoDB endpoint of a running server, once it answers. */
  readonly endpoint?: string;
  readonly tableName?: string;
  readonly url?: string;
}

export interface DataLock {
  /** Publishes more about the holder (a server's endpoint, once it is up). */
  update(fields: Partial<LockOwner>): Promise<void>;
  /** Removes the file if it is still ours. Safe to call more than once. */
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

/**
 * Creates the lock file, or waits up to `waitMs` for a live holder to let go. A holder whose
 * process is gone (killed, crashed) is stale: its file is replaced.
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
  const deadline = Date.now() + (options.waitMs ?? 0);
  let owner: LockOwner = { pid: process.pid, role, startedAt: new Date().toISOString() };
  for (;;) {
    try {
      await writeFile(file, serialize(owner), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readLockFile(file);
    if (holder === 'unreadable' || (holder !== 'absent' && !isAlive(holder.pid))) {
      await rm(file, { force: true });
      continue;
    }
    if (holder !== 'absent' && (Date.now() >= deadline || options.waitFor?.(holder) === false)) {
      throw new DataFolderBusyError(file, holder);
    }
    await sleep(100);
  }

  let released = false;
  return {
    async update(fields) {
      owner = { ...owner, ...fields, pid: process.pid };
      // Written beside and renamed over, so a reader never sees half a file.
      const temporary = `${file}.${randomUUID()}`;
      await writeFile(temporary, serialize(owner), { mode: 0o600 });
      await rename(temporary, file);
    },
    async release() {
      if (released) return;
      released = true;
      const holder = await readLockFile(file);
      if (holder !== 'absent' && holder !== 'unreadable' && holder.pid !== process.pid) return;
      await rm(file, { force: true });
    },
  };
}

/** The live holder of the folder, if any. */
export async function readLockOwner(file: string): Promise<LockOwner | undefined> {
  const holder = await readLockFile(file);
  if (holder === 'absent' || holder === 'unreadable' || !isAlive(holder.pid)) return undefined;
  return holder;
}

async function readLockFile(file: string): Promise<LockOwner | 'absent' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw error;
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner.pid === 'number' ? owner : 'unreadable';
  } catch {
    // Written with `wx` in one call, so a torn file means its writer died mid-write.
    return 'unreadable';
  }
}

function serialize(owner: LockOwner): string {
  return `${JSON.stringify(owner, null, 2)}\n`;
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
