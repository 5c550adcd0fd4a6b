import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBin } from '../../../scripts/cli/build-bin.js';

/**
 * `npm run build` (and `npm ci`'s prepare): the executable bundled into a folder, here a fresh
 * one beside the repo's node_modules, where the bundle's package imports resolve as in dist/.
 */

const run = promisify(execFile);

describe('buildBin', () => {
  let folder: string;
  beforeAll(async () => {
    await mkdir(resolve('.cache'), { recursive: true });
    folder = await mkdtemp(resolve('.cache', 'build-bin-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('writes an executable that runs the commands, with the console assets beside it', async () => {
    const entry = await buildBin(folder);

    expect(entry).toBe(join(folder, 'callback-receiver.js'));
    expect((await stat(entry)).mode & 0o777).toBe(0o755);
    const { stdout } = await run(process.execPath, [entry, '--help']);
    expect(stdout).toMatch(/^Usage: callback-receiver <command> \[options\]/);
    expect(stdout).toContain('simulate');
    expect(await readdir(join(folder, 'assets'))).toEqual(
      await readdir(resolve('scripts/console/assets')),
    );
    // No staging file is left behind.
    expect((await readdir(folder)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('removes chunks of builds older than an hour, keeps recent ones a command may still load', async () => {
    const old = join(folder, 'chunk-OLDBUILD.js');
    const recent = join(folder, 'chunk-RECENT.js');
    await writeFile(old, 'export {};\n');
    await writeFile(recent, 'export {};\n');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(old, twoHoursAgo, twoHoursAgo);

    await buildBin(folder);

    const names = await readdir(folder);
    expect(names).not.toContain('chunk-OLDBUILD.js');
    expect(names).toContain('chunk-RECENT.js');
    expect(names).toContain('callback-receiver.js');
  });
});
