import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import type { CommandFigures } from './timed-command.js';

/** Runs one command of the bench against the seeded table, logging and returning its figures. */
export type Timed = (
  what: string,
  format: string,
  script: string,
  args: string[],
  more?: NodeJS.ProcessEnv,
) => Promise<CommandFigures>;

export interface Row extends CommandFigures {
  readonly rows: number;
  readonly case: string;
  readonly format: string;
  /** What the consumer took in, for the commands that deliver. */
  readonly delivered?: string;
}

/** Prints the table with the machine and load it was measured on, and the JSON when asked. */
export async function publish(
  rows: readonly Row[],
  engine: string,
  loadBefore: string | undefined,
  json: string | undefined,
): Promise<void> {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.versions.node}, ${engine}`;
  const after = loadavg()[0]?.toFixed(1);
  process.stdout.write(
    `${markdown(rows)}\n${machine}; load average ${loadBefore} before, ${after} after.\n`,
  );
  if (json) await writeFile(json, `${JSON.stringify({ machine, rows }, null, 2)}\n`);
}

function markdown(rows: readonly Row[]): string {
  const lines = [
    '| rows | command | format | wall (s) | CPU (s) | peak RSS (MB) | exit | output (MB) | table / json wall | table / json CPU | the sink took in |',
    '| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const json = rows.find(
      (other) => other.rows === row.rows && other.case === row.case && other.format === 'json',
    );
    const ratio = (figure: 'seconds' | 'cpuSeconds') =>
      row.format === 'table' && json ? `${(row[figure] / json[figure]).toFixed(2)}×` : '';
    lines.push(
      `| ${row.rows.toLocaleString('en')} | ${row.case} | ${row.format} | ${row.seconds.toFixed(1)} | ${row.cpuSeconds.toFixed(1)} | ${row.peakRssMb} | ${row.exitCode} | ${(row.stdoutBytes / 2 ** 20).toFixed(1)} | ${ratio('seconds')} | ${ratio('cpuSeconds')} | ${row.delivered ?? ''} |`,
    );
  }
  return lines.join('\n');
}
