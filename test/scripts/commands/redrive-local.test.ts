import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../../scripts/operations/events/dead-letters.js';
import { eventFiles } from '../../../scripts/operations/events/event-files.js';
import { type EventConsumer, startEventConsumer } from '../../support/event-consumer.js';
import { deadLetters } from '../../support/forwarding.js';
import { runCommand } from '../../support/in-process-cli.js';

/**
 * `npm run redrive -- --forward-to <url>` on local mode's dead-letter file, written here as the
 * forwarder writes it: a line per letter, and what the command says of each.
 */
let consumer: EventConsumer;
let folder: string;
beforeAll(async () => {
  consumer = await startEventConsumer();
});
afterAll(() => consumer.close());
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'redrive-local-'));
  consumer.received.length = 0;
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const letter = (id: string, more: Partial<DeadLetter>): DeadLetter => ({
  id,
  attempts: 6,
  problem: 'HTTP 503',
  deadLetteredAt: '2026-11-20T10:00:00.000Z',
  ...more,
});

async function writeLetters(letters: readonly DeadLetter[]): Promise<string> {
  const file = eventFiles(folder).deadLetters;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, letters.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}

describe('npm run redrive --forward-to', () => {
  it('says there are none in an empty data folder, exit 0', async () => {
    const result = await runCommand('redrive', ['--forward-to', consumer.url], {
      DATA_DIR: folder,
    });

    expect(result.stdout).toBe(`No dead letters in ${eventFiles(folder).deadLetters}.\n`);
    expect(result.code).toBe(0);
  });

  it('delivers and removes what it can, keeps a record that cannot become an event, exit 1', async () => {
    const body = JSON.stringify({ id: 'event-1', 'detail-type': 'Transaction Completed' });
    const file = await writeLetters([
      letter('event-1', { body }),
      // A removed item stands for no event: nothing is owed, so it leaves the file unsent.
      letter('event-2', { record: { eventName: 'REMOVE', dynamodb: {} } }),
      letter('event-3', { record: { eventName: 'INSERT', dynamodb: { SequenceNumber: '7' } } }),
    ]);

    const result = await runCommand('redrive', ['--forward-to', consumer.url], {
      DATA_DIR: folder,
    });

    expect(result.stdout.split('\n')).toEqual([
      'event-1: delivered; removed',
      'event-2: delivered; removed',
      expect.stringMatching(/^event-3: kept \(The INSERT record has no new image/),
      `2 dead letter(s) delivered to ${consumer.url} and removed from ${file}.`,
      '',
    ]);
    expect(result.code).toBe(1);
    expect(consumer.received.map((event) => event.body)).toEqual([body]);
    expect((await deadLetters(folder)).map((l) => l.id)).toEqual(['event-3']);
  });

  it('refuses an in-memory run, which keeps no dead letters, exit 2', async () => {
    const result = await runCommand('redrive', ['--forward-to', consumer.url], {
      DATA_DIR: ':memory:',
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^redrive: an in-memory run keeps no dead letters: set DATA_DIR to its folder$/m,
    );
  });
});
