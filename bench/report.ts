import { memoryTable } from './measure/memory.js';
import { outcomeTables } from './measure/request-counts.js';
import type { BenchmarkResults } from './run.js';

export const sections = [
  'DynamoDB requests per callback',
  'Handler CPU per callback',
  'Cold start',
  'End to end',
] as const;

/** One line of the results table; `floor` is the bare-SDK bundle's figure (cold start only). */
export interface ResultRow {
  readonly section: (typeof sections)[number];
  readonly metric: string;
  readonly unit: string;
  readonly ours: number;
  readonly baseline: number;
  readonly floor?: number;
  /** The target this row is held to, and whether the run met it. */
  readonly target?: { readonly text: string; readonly met: boolean };
}

const figure = (value: number, unit: string) => {
  const digits = unit === 'KB' || unit === 'ms' ? 1 : 0;
  const format = { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return Number.isFinite(value) ? value.toLocaleString('en-US', format) : '–';
};
const ratio = (value: number, base: number) =>
  base === 0 || !Number.isFinite(value / base) ? '–' : `${(value / base).toFixed(2)}×`;

/**
 * The table, what each receiver answered, and the run's conditions: the machine's load moves
 * every figure. How each is measured is said once, in docs/performance.md.
 */
export function markdown(results: BenchmarkResults): string {
  const lines = [
    '| Metric | Ours | Baseline | Ours / baseline | SDK floor | Ours / floor | Target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const section of sections) {
    lines.push(`| **${section}** | | | | | | |`);
    for (const row of results.rows.filter((candidate) => candidate.section === section)) {
      const { ours, baseline, floor, unit, target } = row;
      const floorCells =
        floor === undefined ? ' | ' : `${figure(floor, unit)} | ${ratio(ours, floor)}`;
      const verdict = target ? `${target.text}: ${target.met ? 'met' : '**missed**'}` : '';
      lines.push(
        `| ${row.metric} (${unit}) | ${figure(ours, unit)} | ${figure(baseline, unit)} | ` +
          `${ratio(ours, baseline)} | ${floorCells} | ${verdict} |`,
      );
    }
  }
  const { machine, mode } = results;
  const load = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(' / ');
  const settings = Object.entries(results.settings).map(([name, value]) => `${name} ${value}`);
  return [
    ...lines,
    '',
    outcomeTables(results.measurements.requestCounts),
    ...(results.measurements.memory
      ? [
          `Memory of one receiver process after a full collection, new callbacks ${results.settings.memoryConcurrency ?? 16} at a time over a store that keeps nothing:`,
          '',
          memoryTable(results.measurements.memory),
          '',
        ]
      : []),
    `Run ${results.startedAt} (${mode === 'smoke' ? 'smoke: figures are not meaningful' : mode}), ` +
      `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}. Load average (1 / 5 / 15 ` +
      `min): ${load(machine.loadBefore)} before, ${load(machine.loadAfter)} after.`,
    `Settings: ${settings.join(', ')}.`,
    '',
  ].join('\n');
}
