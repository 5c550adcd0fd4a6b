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
  /** The target for this row, and whether the run met it. */
  readonly target?: { readonly text: string; readonly met: boolean };
}

const figure = (value: number, unit: string) => {
  const digits = unit === 'KB' || unit === 'ms' ? 1 : 0;
  return Number.isFinite(value)
    ? value.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      })
    : '–';
};
const ratio = (value: number, base: number) =>
  base === 0 || !Number.isFinite(value / base) ? '–' : `${(value / base).toFixed(2)}×`;

/**
 * The table, what each receiver answered, and how the figures were obtained (machine load
 * included: two busy cores move every figure).
 */
export function markdown(results: BenchmarkResults): string {
  const lines = [
    '| Metric | Ours | Baseline | Ours / baseline | SDK floor | Ours / floor | Target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const section of sections) {
    lines.push(`| **${section}** | | | | | | |`);
    for (const row of results.rows.filter((candidate) => candidate.section === section)) {
      const floor =
        row.floor === undefined
          ? ['', '']
          : [figure(row.floor, row.unit), ratio(row.ours, row.floor)];
      const target = row.target
        ? `${row.target.text}: ${row.target.met ? 'met' : '**missed**'}`
        : '';
      lines.push(
        `| ${row.metric} (${row.unit}) | ${figure(row.ours, row.unit)} | ` +
          `${figure(row.baseline, row.unit)} | ${ratio(row.ours, row.baseline)} | ` +
          `${floor.join(' | ')} | ${target} |`,
      );
    }
  }
  const { machine, settings: s } = results;
  const load = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(' / ');
  return [
    ...lines,
    '',
    outcomeTables(results.measurements.requestCounts),
    `Run ${results.startedAt} (${results.mode}${results.mode === 'smoke' ? ': figures are not meaningful' : ''}), ` +
      `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}.`,
    `Load average (1 / 5 / 15 min): ${load(machine.loadBefore)} before, ${load(machine.loadAfter)} after.`,
    `DynamoDB requests: ${s.requestRounds} rounds per delivery, counted at the SDK client. ` +
      `Handler CPU: tinybench on a \`process.cpuUsage\` clock, ${s.cpuIterations} invocations per ` +
      `case after ${s.cpuWarmup} warm-up with in-memory stores, ${s.cpuEngineIterations} with the ` +
      'real stores and SDK against DynamoDB Local in its own process (rows marked so). ' +
      `Cold start: ${s.coldStartProcesses} fresh Node 24 processes per bundle against DynamoDB Local. ` +
      `End to end: autocannon, ${s.connections} connections, ${s.durationSeconds} s per run after ` +
      `${s.warmupSeconds} s warm-up, ${s.loadRounds} run(s) each alternating, after ` +
      `${s.engineWarmupSeconds} s of unmeasured load each to warm the engine; every request a new ` +
      'signed callback on DynamoDB Local; ours behind `startLocalServer` (EMF metrics off, as ' +
      '`npm start`), the baseline behind the same HTTP-to-event adapter.',
    '',
  ].join('\n');
}
