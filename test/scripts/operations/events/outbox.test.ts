import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
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
});
