import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { withCountingSink } from '../support/counting-sink.js';
import { benchDay, deadLetterLines, writeLines } from './scale-data.js';
import type { Row, Timed } from './tools-report.js';

/**
 * replay of the seeded day, then redrive of as many dead letters (local mode's file, written
 * first), each to a sink that counts what it took in: every event delivered once is the check.
 */
export function measureEvents(seeded: number, dir: string, timed: Timed): Promise<Row[]> {
  const label = `(${seeded.toLocaleString('en')} events)`;
  return withCountingSink(async (sink) => {
    const delivered = () => {
      const { requests, distinctIds, bytes } = sink.take();
      return `${requests} POSTs, ${distinctIds} ids, ${(bytes / 2 ** 20).toFixed(1)} MB`;
    };
    const replay = await timed(
      'replay --forward-to',
      'table',
      'scripts/commands/replay-command.ts',
      ['--since', benchDay.since, '--until', benchDay.until, '--forward-to', sink.url],
    );
    const replayed = delivered();
    const dataDir = join(dir, 'redrive-data');
    await mkdir(join(dataDir, 'events'), { recursive: true });
    await writeLines(join(dataDir, 'events', 'dead-letters.jsonl'), deadLetterLines(seeded));
    const redrive = await timed(
      'redrive --forward-to',
      'lines',
      'scripts/commands/redrive-command.ts',
      ['--forward-to', sink.url],
      { DATA_DIR: dataDir },
    );
    return [
      {
        rows: seeded,
        case: `replay of the day ${label}`,
        format: 'table',
        ...replay,
        delivered: replayed,
      },
      {
        rows: seeded,
        case: `redrive of local dead letters ${label}`,
        format: 'lines',
        ...redrive,
        delivered: delivered(),
      },
    ];
  });
}
