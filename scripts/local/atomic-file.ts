import { randomUUID } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';

/**
 * Written beside (owner-only from the first byte), synced, then renamed over: a reader sees the
 * old file or the new, whole, never half of one.
 */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, text, { mode: 0o600, flush: true });
  await rename(temporary, file);
}
