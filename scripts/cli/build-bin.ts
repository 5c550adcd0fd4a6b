/**
 * Builds the `callback-receiver` executable into dist/cli/ (git-ignored): the TypeScript of
 * scripts/ bundled once with esbuild, so a command starts without compiling; the packages in
 * node_modules stay imports. `npm ci` runs it (the `prepare` script), `npm run build` again,
 * and the test run's global setup before any test spawns a command.
 */
import { copyFile, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

const repoRoot = resolve(import.meta.dirname, '..', '..');

export const binFolder = join(repoRoot, 'dist', 'cli');
export const binPath = join(binFolder, 'callback-receiver.js');

/** A file no build wrote for this long belongs to no command still loading its chunks. */
const staleAfterMs = 60 * 60 * 1000;

/**
 * Several builds may run at once (test runs in parallel) while commands start from dist/: each
 * file is written beside its place and renamed into it, chunks (named by their content) before
 * the entry that imports them, so a command never reads half a file or a chunk not there yet.
 */
export async function buildBin(folder: string = binFolder): Promise<string> {
  const result = await build({
    entryPoints: { 'callback-receiver': join(repoRoot, 'scripts/commands/callback-receiver.ts') },
    outdir: folder,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    // The packages are installed beside dist/: imported from node_modules, as under tsx.
    packages: 'external',
    // Flat, so console/assets.ts finds ./assets beside whichever chunk holds it.
    chunkNames: '[name]-[hash]',
    write: false,
    logLevel: 'warning',
  });
  await mkdir(join(folder, 'assets'), { recursive: true });
  const entry = join(folder, 'callback-receiver.js');
  const written = new Set<string>([entry]);
  for (const file of result.outputFiles.filter((output) => output.path !== entry)) {
    await writeAtomically(file.path, file.contents);
    written.add(file.path);
  }
  const assets = join(repoRoot, 'scripts/console/assets');
  for (const name of await readdir(assets)) {
    const target = join(folder, 'assets', name);
    await copyAtomically(join(assets, name), target);
    written.add(target);
  }
  const built = result.outputFiles.find((output) => output.path === entry);
  if (!built) throw new Error('esbuild wrote no callback-receiver.js');
  await writeAtomically(entry, built.contents, 0o755);
  await removeStale(folder, written);
  return entry;
}

async function writeAtomically(path: string, contents: Uint8Array, mode = 0o644): Promise<void> {
  const staging = join(dirname(path), `.${basename(path)}.${process.pid}`);
  await writeFile(staging, contents, { mode });
  await rename(staging, path);
}

async function copyAtomically(from: string, to: string): Promise<void> {
  const staging = join(dirname(to), `.${basename(to)}.${process.pid}`);
  await copyFile(from, staging);
  await rename(staging, to);
}

/** Chunks of older builds: kept while a command started from one may still load them. */
async function removeStale(folder: string, written: ReadonlySet<string>): Promise<void> {
  for (const name of await readdir(folder)) {
    const path = join(folder, name);
    if (written.has(path) || name === 'assets') continue;
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs > staleAfterMs) await rm(path, { force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const started = performance.now();
  const entry = await buildBin();
  const ms = Math.round(performance.now() - started);
  process.stderr.write(`built ${entry.slice(repoRoot.length + 1)} in ${ms} ms\n`);
}
