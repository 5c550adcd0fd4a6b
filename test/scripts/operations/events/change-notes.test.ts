import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noteChanges, takeChanges } from '../../../../scripts/operations/events/change-notes.js';
import { eventFiles } from '../../../../scripts/operations/events/event-files.js';

describe('notes of changes made outside the server', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'change-notes-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('writes nothing where forwarding never ran', async () => {
    const files = eventFiles(folder);

    await noteChanges(files, ['ref-1']);

    expect(await readdir(folder)).toEqual([]);
  });

  it('hands over every noted reference in the order noted, and forgets them once done', async () => {
    const files = eventFiles(folder);
    await mkdir(files.dir);
    await noteChanges(files, ['ref-1']);
    await noteChanges(files, ['ref-2', 'ref-3']);

    const taken = await takeChanges(files);
    await noteChanges(files, ['ref-4']); // noted while the first ones are being recorded
    await taken.done();

    expect(taken.references).toEqual(['ref-1', 'ref-2', 'ref-3']);
    expect((await takeChanges(files)).references).toEqual(['ref-4']);
  });
  it('writes no note for no references, even where forwarding runs', async () => {
    const files = eventFiles(folder);
    await mkdir(files.dir);

    await noteChanges(files, []);

    expect(await readdir(files.dir)).toEqual([]);
  });

  it('takes the references of a note and skips what is not one, or is still being written', async () => {
    const files = eventFiles(folder);
    await mkdir(files.changes, { recursive: true });
    await writeFile(join(files.changes, '1-a.json'), JSON.stringify({ references: ['ref-1', 7] }));
    await writeFile(join(files.changes, '2-b.json'), JSON.stringify({ something: 'else' }));
    await writeFile(join(files.changes, '3-c.json.tmp'), JSON.stringify({ references: ['ref-9'] }));

    const taken = await takeChanges(files);
    await taken.done();

    expect(taken.references).toEqual(['ref-1']);
    expect(await readdir(files.changes)).toEqual(['3-c.json.tmp']);
  });
});
