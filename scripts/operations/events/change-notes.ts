import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomically } from '../../cli/atomic-file.js';
import type { EventFiles } from './event-files.js';

let noted = 0;

/**
 * A tool that changes an item in place (`npm run settle`, the console's settle) says so here:
 * the forwarder follows what the table receives through its time index, where a changed item
 * does not move. Each note is a file of its own, written whole (renamed into place), so any
 * number of tools write while the forwarder reads and deletes, without a lock. Nothing is written
 * where forwarding never ran: its first start takes the table as it finds it.
 */
export async function noteChanges(files: EventFiles, references: readonly string[]): Promise<void> {
  if (references.length === 0) return;
  const forwarding = await stat(files.dir).then(
    () => true,
    () => false,
  );
  if (!forwarding) return;
  await mkdir(files.changes, { recursive: true, mode: 0o700 });
  // Named by time, then by a count (two notes in one millisecond), so they are taken in the
  // order they were written.
  noted += 1;
  const name = `${Date.now().toString().padStart(15, '0')}-${String(noted).padStart(9, '0')}-${randomUUID()}.json`;
  await writeAtomically(join(files.changes, name), JSON.stringify({ references }));
}

/** The notes waiting, oldest first, and how to remove them once their changes are recorded. */
export async function takeChanges(files: EventFiles): Promise<{
  readonly references: string[];
  done(): Promise<void>;
}> {
  const names = await readdir(files.changes).catch(() => [] as string[]);
  // A `.tmp` is a note still being written: taken at the next read, once renamed.
  const notes = names.filter((name) => name.endsWith('.json')).sort();
  const references: string[] = [];
  for (const name of notes) {
    const text = await readFile(join(files.changes, name), 'utf8');
    const note = JSON.parse(text) as { references?: unknown };
    if (Array.isArray(note.references)) {
      references.push(...note.references.filter((r): r is string => typeof r === 'string'));
    }
  }
  return {
    references,
    async done() {
      for (const name of notes) await unlink(join(files.changes, name)).catch(() => {});
    },
  };
}
