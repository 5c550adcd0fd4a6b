import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  eachJsonLine,
  readJsonLines,
} from '../../../../scripts/operations/events/json-lines-file.js';

describe('reading a JSON Lines file the forwarder appends to', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'json-lines-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const collect = async (file: string) => {
    const lines: unknown[] = [];
    for await (const line of eachJsonLine(file)) lines.push(line);
    return lines;
  };

  it('yields each complete line, skips blank ones and leaves out a last line cut short', async () => {
    const file = join(dir, 'letters.jsonl');
    await writeFile(file, '{"id":"a"}\n\n  \n{"id":"b"}\n{"id":"c","torn');
    expect(await collect(file)).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(await readJsonLines(file)).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('yields nothing for a file that does not exist', async () => {
    expect(await collect(join(dir, 'missing.jsonl'))).toEqual([]);
  });

  it('keeps lines and characters whole across the chunks it reads', async () => {
    // Several 64 KiB chunks of lines holding multi-byte characters, so that both a line and a
    // character are split between two chunks somewhere.
    const lines = Array.from({ length: 3_000 }, (_, index) => ({
      id: `letter-${index}`,
      body: `Şükrü 🙂 ${'é'.repeat(index % 97)}`,
    }));
    const file = join(dir, 'long.jsonl');
    await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    expect(await collect(file)).toEqual(lines);
  });

  it('throws on a line that is not JSON instead of skipping it', async () => {
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, '{"id":"a"}\nnot json\n');
    await expect(collect(file)).rejects.toThrow(SyntaxError);
  });
});
