import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `use` with a fresh folder in the system's temporary folder (`TMPDIR`), removed afterwards
 * whatever happens: where a bench keeps its reports and a child's figures. (Node's own
 * `mkdtempDisposable` needs Node 24.4, and a bench may run under an older Node; see node24.ts.)
 */
export async function inScratchDir<T>(
  prefix: string,
  use: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
