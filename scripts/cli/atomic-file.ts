import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Written beside (owner-only from the first byte), synced, then renamed over: a reader sees the
 * old file or the new, whole, never half of one.
 */
export async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, text, { mode: 0o600, flush: true });
  await rename(temporary, file);
}

/**
 * The same for a text too long to hold at once: its parts are streamed into the file beside,
 * which is synced before the rename and removed if writing fails.
 */
export async function writeAtomicallyFrom(file: string, parts: AsyncIterable<string>) {
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await pipeline(
      Readable.from(parts),
      createWriteStream(temporary, { mode: 0o600, flush: true }),
    );
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await rename(temporary, file);
}
