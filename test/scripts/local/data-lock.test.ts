import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireDataLock,
  DataFolderBusyError,
  readLockOwner,
} from '../../../scripts/local/data-lock.js';

describe('acquireDataLock (one process per local data folder)', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'data-lock-'));
    file = join(dir, 'lock.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a second holder while the first is alive, naming it', async () => {
    const lock = await acquireDataLock(file, 'server');

    const second = acquireDataLock(file, 'query');

    await expect(second).rejects.toBeInstanceOf(DataFolderBusyError);
    await expect(second).rejects.toMatchObject({ owner: { pid: process.pid, role: 'server' } });
    await lock.release();
  });

  it("publishes the holder's endpoint and removes the file on release", async () => {
    const lock = await acquireDataLock(file, 'server');

    await lock.update({ endpoint: 'http://127.0.0.1:1234', tableName: 't' });
    const owner = await readLockOwner(file);
    await lock.release();

    expect(owner).toMatchObject({
      role: 'server',
      endpoint: 'http://127.0.0.1:1234',
      tableName: 't',
    });
    expect(await readLockOwner(file)).toBeUndefined();
  });

  it('takes over the file of a process that died without releasing it', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(dead.stdout.toString());
    await writeFile(
      file,
      JSON.stringify({ pid: deadPid, role: 'server', startedAt: '2026-01-01T00:00:00Z' }),
    );

    const lock = await acquireDataLock(file, 'query');

    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      pid: process.pid,
      role: 'query',
    });
    await lock.release();
  });

  it('fails at once for a holder it was told not to wait for', async () => {
    const lock = await acquireDataLock(file, 'server');
    const started = Date.now();

    const second = acquireDataLock(file, 'server', {
      waitMs: 5_000,
      waitFor: (holder) => holder.role === 'query',
    });

    await expect(second).rejects.toBeInstanceOf(DataFolderBusyError);
    expect(Date.now() - started).toBeLessThan(1_000);
    await lock.release();
  });

  it('waits for a holder that lets go within the wait', async () => {
    const first = await acquireDataLock(file, 'query');
    setTimeout(() => void first.release(), 150);

    const second = await acquireDataLock(file, 'server', { waitMs: 5_000 });

    expect((await readLockOwner(file))?.role).toBe('server');
    await second.release();
  });
});
