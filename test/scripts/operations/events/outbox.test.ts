import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventFiles } from '../../../../scripts/operations/events/event-files.js';
import { Outbox, type OutboxEntry } from '../../../../scripts/operations/events/outbox.js';

const entry = (key: string, digest: string | null): OutboxEntry => ({
  key,
  digest,
  record: { eventID: `event-${key}`, eventName: digest === null ? 'REMOVE' : 'INSERT' },
});

describe('the outbox of local mode events', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outbox-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps its snapshot and appended changes across a reopen, so no change is appended twice', async () => {
    const files = eventFiles(dir);
    const first = await Outbox.open(files);
    expect(first.started).toBe(false);
    await first.start(new Map([['old', 'd0']]));
    await first.append([entry('a', 'd1'), entry('old', null)]);

    const again = await Outbox.open(files);

    expect(again.started).toBe(true);
    expect([...again.seen]).toEqual([['a', 'd1']]);
    expect(again.entries.map((e) => e.record.eventID)).toEqual(['event-a', 'event-old']);
    expect(again.forwarded).toBe(0);
  });

  it('drops a line a crash cut short: the next read of the table finds that change again', async () => {
    const files = eventFiles(dir);
    const outbox = await Outbox.open(files);
    await outbox.start(new Map());
    await outbox.append([entry('a', 'd1')]);
    await appendFile(files.outbox, '{"key":"b","dig');

    const again = await Outbox.open(files);

    expect(again.entries.map((e) => e.key)).toEqual(['a']);
    expect(again.seen.has('b')).toBe(false);
    expect(await readFile(files.outbox, 'utf8')).toBe(`${JSON.stringify(entry('a', 'd1'))}\n`);
  });

  it('resumes at the first entry not done with, and folds a finished outbox into its snapshot', async () => {
    const files = eventFiles(dir);
    const outbox = await Outbox.open(files);
    await outbox.start(new Map());
    await outbox.append([entry('a', 'd1'), entry('b', 'd2')]);
    await outbox.markForwarded();

    const resumed = await Outbox.open(files);
    expect(resumed.forwarded).toBe(1);
    expect(resumed.entries[resumed.forwarded]?.key).toBe('b');
    await resumed.markForwarded();

    const compacted = await Outbox.open(files);
    expect(compacted.entries).toEqual([]);
    expect(compacted.forwarded).toBe(0);
    expect(Object.fromEntries(compacted.seen)).toEqual({ a: 'd1', b: 'd2' });
    expect(await readFile(files.outbox, 'utf8')).toBe('');
  });

  it('keeps the digests of the latest changed items only when it folds', async () => {
    const files = eventFiles(dir);
    const outbox = await Outbox.open(files, 2);
    await outbox.start(new Map());
    await outbox.append([entry('a', 'd1'), entry('b', 'd2'), entry('c', 'd3'), entry('a', 'd4')]);
    for (let i = 0; i < 4; i++) await outbox.markForwarded();

    const folded = await Outbox.open(files, 2);

    expect(folded.entries).toEqual([]);
    expect([...folded.seen]).toEqual([
      ['c', 'd3'],
      ['a', 'd4'],
    ]);
  });

  it('never drops a change appended while it compacts', async () => {
    const files = eventFiles(dir);
    const outbox = await Outbox.open(files);
    await outbox.start(new Map());
    await outbox.append([entry('a', 'd1')]);
    await outbox.markForwarded();

    await Promise.all([outbox.compactWhenDone(1), outbox.append([entry('b', 'd2')])]);

    const again = await Outbox.open(files);
    expect(again.entries.map((e) => e.key)).toEqual(['b']);
    expect(again.forwarded).toBe(0);
    expect(Object.fromEntries(again.seen)).toEqual({ a: 'd1', b: 'd2' });
  });
  it('refuses an outbox with a line that is not JSON, naming the file, the line and what to do', async () => {
    const files = eventFiles(dir);
    const outbox = await Outbox.open(files);
    await outbox.start(new Map());
    await outbox.append([entry('a', 'd1')]);
    await appendFile(files.outbox, 'not json\n');

    await expect(Outbox.open(files)).rejects.toThrow(
      `${files.outbox} line 2 is not JSON: fix or delete the events/ folder (its events are then not forwarded)`,
    );
  });

  it('takes from a saved state only the entries done past its count that the outbox still holds', async () => {
    const files = eventFiles(dir);
    const outbox = await Outbox.open(files);
    await outbox.start(new Map());
    await outbox.append([entry('a', 'd1'), entry('b', 'd2'), entry('c', 'd3'), entry('d', 'd4')]);
    await writeFile(files.forwarded, JSON.stringify({ count: 1, done: [0, 1, 2, 9] }));

    const resumed = await Outbox.open(files);

    expect(resumed.forwarded).toBe(1);
    expect([0, 1, 2, 3].map((index) => resumed.isDone(index))).toEqual([true, false, true, false]);
    expect(resumed.owed).toBe(2);
  });

  it('fails to open rather than start over when its state cannot be read', async () => {
    const files = eventFiles(dir);
    await mkdir(files.forwarded, { recursive: true });

    await expect(Outbox.open(files)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
