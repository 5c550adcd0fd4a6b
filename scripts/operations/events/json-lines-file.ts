import { createReadStream } from 'node:fs';

/**
 * The complete lines of a JSON Lines file the forwarder appends to (outbox, dead letters), each
 * parsed as it is read, a chunk at a time: memory stays flat however long the file (a million
 * dead letters are about a gigabyte, more than one string can hold). None when the file does not
 * exist. A last line without its newline was cut short by a crash mid-append and was never
 * written: it is left out.
 */
export async function* eachJsonLine<T>(file: string): AsyncGenerator<T> {
  let rest = '';
  try {
    // `encoding` decodes through a StringDecoder: a character split between chunks stays whole.
    for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
      const lines = `${rest}${chunk}`.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as T;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
}

/** Every complete line of the file, parsed, in one array: for files known to be small. */
export async function readJsonLines<T>(file: string): Promise<T[]> {
  const lines: T[] = [];
  for await (const line of eachJsonLine<T>(file)) lines.push(line);
  return lines;
}
