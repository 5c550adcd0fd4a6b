import type { ColdStartResult } from '../measure/cold-start.js';
import type { EndToEndResult } from '../measure/end-to-end.js';
import { type CpuCase, type CpuResult, type CpuSetup, cpuSetups } from '../measure/handler-cpu.js';
import { deliveries, type RequestCount } from '../measure/request-counts.js';
import type { SubjectName } from '../support/subject.js';
import type { ResultRow } from './result-row.js';

export interface Measurements {
  readonly requestCounts: readonly RequestCount[];
  readonly cpu: readonly CpuResult[];
  readonly coldStart: readonly ColdStartResult[];
  readonly endToEnd: readonly EndToEndResult[];
}

const deliveryLabels = {
  new: 'new callback',
  duplicate: 'identical duplicate',
  conflict: 'conflict (same reference, other content)',
  'conflict again': 'the conflicting delivery again',
  'duplicate after conflicts': 'the first content again, after the conflicts',
} as const;

/** The results table: one row per metric, with the targets where it sets one. */
export function resultRows(measurements: Measurements): ResultRow[] {
  return [
    ...requestRows(measurements.requestCounts),
    ...cpuRows(measurements.cpu),
    ...coldStartRows(measurements.coldStart),
    ...endToEndRows(measurements.endToEnd),
  ];
}

function requestRows(counts: readonly RequestCount[]): ResultRow[] {
  const rows: ResultRow[] = [];
  const engines = [...new Set(counts.map((count) => count.engine))];
  for (const engine of engines) {
    for (const delivery of deliveries) {
      const find = (subject: SubjectName) =>
        counts.find((c) => c.engine === engine && c.delivery === delivery && c.subject === subject);
      const ours = find('ours');
      const baseline = find('baseline');
      if (!ours || !baseline) continue;
      const targeted =
        engine === 'DynamoDB Local' && (delivery === 'new' || delivery === 'duplicate');
      rows.push({
        section: 'DynamoDB requests per callback',
        metric: `${deliveryLabels[delivery]}, ${engine}`,
        unit: 'requests',
        ours: ours.requests,
        baseline: baseline.requests,
        lowerIsBetter: true,
        ...(targeted ? { target: { text: '= 1', met: ours.requests === 1 } } : {}),
      });
    }
  }
  return rows;
}

function cpuRows(results: readonly CpuResult[]): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const [setup, cases] of Object.entries(cpuSetups) as [CpuSetup, readonly CpuCase[]][]) {
    // The target is set on the first setup (network out behind the store interface).
    const targeted = setup === 'in-memory store';
    const suffix = targeted ? '' : `, ${setup}`;
    for (const kind of cases) {
      const find = (subject: SubjectName) =>
        results.find((r) => r.setup === setup && r.subject === subject && r.case === kind);
      const ours = find('ours');
      const baseline = find('baseline');
      if (!ours || !baseline) continue;
      rows.push({
        section: 'Handler CPU per callback',
        metric: `${kind}${suffix}, median`,
        unit: 'µs',
        ours: ours.medianMicros,
        baseline: baseline.medianMicros,
        lowerIsBetter: true,
        ...(targeted
          ? {
              target: {
                text: '≤ 0.5× baseline',
                met: ours.medianMicros <= baseline.medianMicros / 2,
              },
            }
          : {}),
      });
      rows.push({
        section: 'Handler CPU per callback',
        metric: `${kind}${suffix}, p99`,
        unit: 'µs',
        ours: ours.p99Micros,
        baseline: baseline.p99Micros,
        lowerIsBetter: true,
      });
    }
  }
  return rows;
}

function coldStartRows(results: readonly ColdStartResult[]): ResultRow[] {
  const find = (name: string) => results.find((r) => r.bundle.name === name);
  const ours = find('ours');
  const baseline = find('baseline');
  const floor = find('floor');
  if (!ours || !baseline || !floor) return [];
  const kb = (bytes: number) => bytes / 1024;
  return [
    {
      section: 'Cold start',
      metric: 'bundle size, minified as deployed',
      unit: 'KB',
      ours: kb(ours.bundle.bytes),
      baseline: kb(baseline.bundle.bytes),
      floor: kb(floor.bundle.bytes),
      lowerIsBetter: true,
      target: { text: '≤ 1.1× floor', met: ours.bundle.bytes <= floor.bundle.bytes * 1.1 },
    },
    {
      section: 'Cold start',
      metric: 'process start to first answer, median',
      unit: 'ms',
      ours: ours.firstAnswerMs,
      baseline: baseline.firstAnswerMs,
      floor: floor.firstAnswerMs,
      lowerIsBetter: true,
      target: { text: '≤ 1.15× floor', met: ours.firstAnswerMs <= floor.firstAnswerMs * 1.15 },
    },
    {
      section: 'Cold start',
      metric: 'of which loading the bundle',
      unit: 'ms',
      ours: ours.loadMs,
      baseline: baseline.loadMs,
      floor: floor.loadMs,
      lowerIsBetter: true,
    },
    {
      section: 'Cold start',
      metric: 'of which the first callback',
      unit: 'ms',
      ours: ours.firstCallbackMs,
      baseline: baseline.firstCallbackMs,
      floor: floor.firstCallbackMs,
      lowerIsBetter: true,
    },
  ];
}

function endToEndRows(results: readonly EndToEndResult[]): ResultRow[] {
  const ours = results.find((r) => r.subject === 'ours');
  const baseline = results.find((r) => r.subject === 'baseline');
  if (!ours || !baseline) return [];
  return [
    {
      section: 'End to end',
      metric: 'throughput',
      unit: 'req/s',
      ours: ours.requestsPerSecond,
      baseline: baseline.requestsPerSecond,
      lowerIsBetter: false,
      target: {
        text: '≥ 1.5× baseline',
        met: ours.requestsPerSecond >= baseline.requestsPerSecond * 1.5,
      },
    },
    {
      section: 'End to end',
      metric: 'latency p50',
      unit: 'ms',
      ours: ours.p50Ms,
      baseline: baseline.p50Ms,
      lowerIsBetter: true,
    },
    {
      section: 'End to end',
      metric: 'latency p99',
      unit: 'ms',
      ours: ours.p99Ms,
      baseline: baseline.p99Ms,
      lowerIsBetter: true,
    },
    {
      section: 'End to end',
      metric: 'errors (non-2xx, timeouts, connection errors)',
      unit: 'count',
      ours: ours.errors,
      baseline: baseline.errors,
      lowerIsBetter: true,
      target: { text: '= 0', met: ours.errors === 0 },
    },
  ];
}
