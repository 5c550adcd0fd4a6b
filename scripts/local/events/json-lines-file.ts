import { readFile } from 'node:fs/promises';

/**
 * The complete lines of a JSON Lines file the forwarder appends to (outbox, dead letters), each
 * parsed; none when the file does not exist. A last line without its newline was cut short by a
 * crash mid-append and was never written: it is left out.
 */
export async function readJsonLines<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return text
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
