import type { BenchmarkResults } from '../benchmark.js';
import { deliveries, type RequestCount } from '../measure/request-counts.js';
import { formatTarget, formatValue, oursOverBaseline, oursOverFloor } from './format.js';
import { sections } from './result-row.js';

/**
 * The results as Markdown: one table, a section heading row per measurement, then the
 * conditions of the run (machine load included, since two busy cores move every figure).
 */
export function markdownReport(results: BenchmarkResults): string {
  const lines = [
    '| Metric | Ours | Baseline | Ours / baseline | SDK floor | Ours / floor | Target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const section of sections) {
    const rows = results.rows.filter((row) => row.section === section);
    if (rows.length === 0) continue;
    lines.push(`| **${section}** | | | | | | |`);
    for (const row of rows) {
      lines.push(
        `| ${row.metric} (${row.unit}) | ${formatValue(row.ours, row.unit)} | ` +
          `${formatValue(row.baseline, row.unit)} | ${oursOverBaseline(row)} | ` +
          `${row.floor === undefined ? '' : formatValue(row.floor, row.unit)} | ` +
          `${oursOverFloor(row)} | ${formatTarget(row)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * What each receiver answered to the request-count sequence on DynamoDB Local: the same
 * deliveries in the same order, so a differing status is a behaviour difference, not noise.
 */
export function outcomesReport(results: BenchmarkResults): string {
  const counts = results.measurements.requestCounts.filter((c) => c.engine === 'DynamoDB Local');
  const lines = [
    '| Delivery (in this order, same reference) | Ours | Baseline |',
    '| --- | --- | --- |',
  ];
  for (const delivery of deliveries) {
    const find = (subject: string) =>
      counts.find((c) => c.delivery === delivery && c.subject === subject);
    const describe = (count: RequestCount | undefined) =>
      count ? `${count.status} (${count.commands.join(', ')})` : '–';
    lines.push(`| ${delivery} | ${describe(find('ours'))} | ${describe(find('baseline'))} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** How the figures were obtained, under the table. */
export function conditions(results: BenchmarkResults): string {
  const { machine, settings } = results;
  const load = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(' / ');
  return [
    `Run ${results.startedAt} (${results.mode}${results.mode === 'smoke' ? ': figures are not meaningful' : ''}), ` +
      `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ${machine.platform}.`,
    `Load average (1 / 5 / 15 min): ${load(machine.loadBefore)} before, ${load(machine.loadAfter)} after.`,
    `DynamoDB requests: ${settings.requestRounds} rounds per delivery, counted at the SDK client. ` +
      `Handler CPU: ${settings.cpuIterations} invocations per case after ${settings.cpuWarmup} ` +
      'warm-up, timed by tinybench on a `process.cpuUsage` clock; in-memory stores, and (rows marked SDK in process) the real ' +
      'stores and SDK with DynamoDB answered from memory at the HTTP handler. ' +
      `Cold start: ${settings.coldStartProcesses} fresh Node 24 processes per bundle against DynamoDB Local. ` +
      `End to end: autocannon, ${settings.connections} connections, ${settings.durationSeconds} s ` +
      `per run (after ${settings.warmupSeconds} s warm-up), ${settings.loadRounds} run(s) each ` +
      `alternating, after ${settings.engineWarmupSeconds} s of unmeasured load each to warm the ` +
      'engine, ' +
      'every request a new signed callback, DynamoDB Local; ours behind `startLocalServer` (which ' +
      'switches EMF metrics off, as `npm start` does), the baseline behind the same HTTP-to-event ' +
      'adapter.',
  ].join('\n');
}
