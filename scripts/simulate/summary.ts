import { quantile } from '../shared/statistics.js';
import type { Plan } from './delivery-plan.js';
import type { RunResult } from './run-simulation.js';

export interface Summary {
  readonly url: string;
  readonly seed: string;
  readonly concurrency: number;
  /** What the plan intended; against an empty table, the outcomes should match it. */
  readonly planned: {
    readonly originals: number;
    readonly redeliveries: number;
    readonly conflicting: number;
  };
  /** Deliveries, each counted once however many attempts it took. */
  readonly sent: number;
  readonly attempts: number;
  readonly retries: number;
  /** 2xx with `x-callback-outcome: recorded`. */
  readonly recorded: number;
  /** 2xx with `x-callback-outcome: duplicate`. */
  readonly duplicates: number;
  /** 409: the reference is recorded with other content. */
  readonly conflicts: number;
  /** 2xx without an outcome header (a receiver other than this one). */
  readonly acceptedOther: number;
  /** Other final 4xx: refused for good. */
  readonly rejected: number;
  /** Still failing (no response, 408, 429, 5xx) when the attempts ran out. */
  readonly failed: number;
  /** Final status of each delivery (`none` for no response). */
  readonly statuses: Readonly<Record<string, number>>;
  /**
   * Why deliveries were rejected or failed, one line each (status and problem title, or the
   * network failure, and what to do), with counts.
   */
  readonly problems: Readonly<Record<string, number>>;
  /** Set when Ctrl-C stopped the run: deliveries not sent, and in flight with no known outcome. */
  readonly interrupted?: { readonly notSent: number; readonly inFlight: number };
  /** Per HTTP attempt, in milliseconds. */
  readonly latencyMs: {
    readonly p50: number;
    readonly p95: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly durationMs: number;
  readonly deliveriesPerSecond: number;
}

export function summarize(
  plan: Plan,
  run: RunResult,
  context: { url: string; seed: string; concurrency: number },
): Summary {
  const count = (key: string, into: Record<string, number>) => {
    into[key] = (into[key] ?? 0) + 1;
  };
  const statuses: Record<string, number> = {};
  const problems: Record<string, number> = {};
  const latencies: number[] = [];
  let attempts = 0;
  let recorded = 0;
  let duplicates = 0;
  let conflicts = 0;
  let acceptedOther = 0;
  let rejected = 0;
  let failed = 0;

  const finished = run.records.filter((record) => record !== undefined);
  for (const { result } of finished) {
    attempts += result.attempts.length;
    for (const attempt of result.attempts) latencies.push(attempt.latencyMs);
    const status = result.status;
    count(status === undefined ? 'none' : String(status), statuses);
    if (status === undefined || status === 408 || status === 429 || status >= 500) {
      failed++;
      count(result.reason ?? `HTTP ${status}`, problems);
    } else if (status >= 200 && status < 300) {
      if (result.outcome === 'recorded') recorded++;
      else if (result.outcome === 'duplicate') duplicates++;
      else acceptedOther++;
    } else if (status === 409) conflicts++;
    else {
      rejected++;
      count(result.reason ?? `HTTP ${status}`, problems);
    }
  }
  const sent = finished.length;
  return {
    url: context.url,
    seed: context.seed,
    concurrency: context.concurrency,
    planned: {
      originals: plan.originals,
      redeliveries: plan.redeliveries,
      conflicting: plan.conflicting,
    },
    sent,
    attempts,
    retries: attempts - sent,
    recorded,
    duplicates,
    conflicts,
    acceptedOther,
    rejected,
    failed,
    statuses,
    problems,
    latencyMs: {
      p50: round(quantile(latencies, 0.5)),
      p95: round(quantile(latencies, 0.95)),
      p99: round(quantile(latencies, 0.99)),
      max: round(quantile(latencies, 1)),
    },
    ...(run.interrupted ? { interrupted: run.interrupted } : {}),
    durationMs: Math.round(run.durationMs),
    deliveriesPerSecond: run.durationMs > 0 ? Math.round((sent / run.durationMs) * 1000) : 0,
  };
}

/** Tenths of a millisecond; 0 when nothing was measured. */
function round(ms: number): number {
  return Number.isNaN(ms) ? 0 : Math.round(ms * 10) / 10;
}

export function formatSummary(summary: Summary): string {
  const { planned, interrupted } = summary;
  const lines = [
    `Sent ${summary.sent} callbacks to ${summary.url} in ${(summary.durationMs / 1000).toFixed(1)} s ` +
      `(${summary.deliveriesPerSecond}/s, concurrency ${summary.concurrency}, seed ${summary.seed})`,
    ...(interrupted
      ? [
          `  interrupted  ${interrupted.notSent} not sent, ${interrupted.inFlight} in flight ` +
            '(outcome unknown: they may have been recorded)',
        ]
      : []),
    `  planned      ${planned.originals} new, ${planned.redeliveries} redelivered, ${planned.conflicting} conflicting`,
    `  recorded     ${summary.recorded}`,
    `  duplicates   ${summary.duplicates}`,
    `  conflicts    ${summary.conflicts}`,
    `  rejected     ${summary.rejected}`,
    ...(summary.acceptedOther > 0
      ? [`  accepted     ${summary.acceptedOther} (2xx without x-callback-outcome)`]
      : []),
    `  failed       ${summary.failed}${summary.failed > 0 ? ' (no success after all attempts)' : ''}`,
    `  retries      ${summary.retries} (${summary.attempts} attempts)`,
    `  latency      p50 ${summary.latencyMs.p50} ms, p95 ${summary.latencyMs.p95} ms, ` +
      `p99 ${summary.latencyMs.p99} ms, max ${summary.latencyMs.max} ms`,
    `  statuses     ${
      Object.entries(summary.statuses)
        .map(([status, n]) => `${status} ×${n}`)
        .join(', ') || '-'
    }`,
    ...Object.entries(summary.problems).map(([reason, n]) => `  ×${n}  ${reason}`),
  ];
  return `${lines.join('\n')}\n`;
}
