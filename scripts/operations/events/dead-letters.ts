import { open } from 'node:fs/promises';
import type { DynamoDBRecord } from 'aws-lambda';
import { lock } from 'proper-lockfile';
import { writeAtomicallyFrom } from '../../cli/atomic-file.js';
import { eachJsonLine, readJsonLines } from './json-lines-file.js';

/** An event that no try delivered, kept to be sent again by `npm run redrive -- --forward-to`. */
export interface DeadLetter {
  /** The envelope's id, which a redrive keeps: consumers dedupe on it. */
  readonly id: string;
  readonly detailType?: string;
  readonly reference?: string;
  /** The envelope exactly as it was POSTed; absent when no event could be built from the record. */
  readonly body?: string;
  /** The stream record, when no event could be built from it (the stream consumer's DLQ case). */
  readonly record?: DynamoDBRecord;
  readonly url?: string;
  readonly attempts: number;
  readonly problem: string;
  readonly deadLetteredAt: string;
}

/**
 * The server appends while a redrive rewrites, in two processes: both take the file's lock
 * (proper-lockfile, a lock directory beside it) so no line is lost between them.
 */
async function withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const release = await lock(file, {
    realpath: false,
    stale: 10_000,
    retries: { retries: 50, minTimeout: 20, maxTimeout: 200 },
  });
  try {
    return await work();
  } finally {
    await release();
  }
}

export function appendDeadLetter(file: string, letter: DeadLetter): Promise<void> {
  return withLock(file, async () => {
    const handle = await open(file, 'a', 0o600);
    try {
      await handle.appendFile(`${JSON.stringify(letter)}\n`);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  });
}

/** Every complete line of the file; none when it does not exist. For a count or a page. */
export function readDeadLetters(file: string): Promise<DeadLetter[]> {
  return readJsonLines<DeadLetter>(file);
}

/** Each letter as it is read, oldest first: what a redrive of any length walks. */
export function eachDeadLetter(file: string): AsyncGenerator<DeadLetter> {
  return eachJsonLine<DeadLetter>(file);
}

/** How many letters the file holds, counted as it is read. */
export async function countDeadLetters(file: string): Promise<number> {
  let count = 0;
  for await (const _letter of eachDeadLetter(file)) count += 1;
  return count;
}

/** Whether the file holds a letter, reading no further than the first. */
export async function hasDeadLetters(file: string): Promise<boolean> {
  for await (const _letter of eachDeadLetter(file)) return true;
  return false;
}

/** Removes the letters with these ids, keeping any appended meanwhile; streamed both ways. */
export function removeDeadLetters(file: string, ids: ReadonlySet<string>): Promise<void> {
  if (ids.size === 0) return Promise.resolve();
  return withLock(file, () => writeAtomicallyFrom(file, keptLines(file, ids)));
}

async function* keptLines(file: string, ids: ReadonlySet<string>): AsyncGenerator<string> {
  for await (const letter of eachDeadLetter(file)) {
    if (!ids.has(letter.id)) yield `${JSON.stringify(letter)}\n`;
  }
}
