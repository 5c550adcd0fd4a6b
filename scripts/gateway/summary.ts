import { type DeliveryResult, isRetryable } from './deliver.js';
import type { Plan } from './delivery-plan.js';
import type { RunResult } from './simulate.js';
import { quantile } from './statistics.js';

/** What `--json` prints. */
export type Summary = ReturnType<typeof summarize>;

/** How a delivery ended, by its final answer; each is counted once however many attempts. */
function verdict({ status, outcome }: DeliveryResult) {
  // Still failing (no response, 408, 429, 5xx) when the attempts ran out.
  if (status === undefined || isRetryable(status)) return 'failed';
  if (status < 200 || status >= 300) return status === 409 ? 'conflicts' : 'rejected';
  if (outcome === 'recorded') return 'recorded';
  // A 2xx without x-callback-outcome comes from a receiver other than this one.
  return outcome === 'duplicate' ? 'duplicates' : 'acceptedOther';
}

export function summarize(
  plan: Plan,
  run: RunResult,
  context: { url: string; seed: string; concurrency: number },
) {
  const finished = run.results.filter((result) => result !== undefined);
  const counts = {
    recorded: 0,
    duplicates: 0,
    conflicts: 0,
    acceptedOther: 0,
    rejected: 0,
    failed: 0,
  };
  for (const result of finished) counts[verdict(result)]++;
  const latencies = finished.flatMap(({ attempts }) => attempts.map((a) => a.latencyMs));
  // Tenths of a millisecond; 0 when nothing was measured.
  const ms = (q: number) => (latencies.length ? Math.round(quantile(latencies, q) * 10) / 10 : 0);
  const sent = finished.length;
  return {
    ...context,
    // What the plan intended; against an empty table, the outcomes should match it.
    planned: {
      originals: plan.originals,
      redeliveries: plan.redeliveries,
      conflicting: plan.conflicting,
    },
    sent,
    attempts: latencies.length,
    retries: latencies.length - sent,
    ...counts,
    statuses: countBy(finished, ({ status }) => String(status ?? 'none')),
    // Why deliveries were rejected or failed, one line each, with counts.
    problems: countBy(
      finished.filter((result) => ['rejected', 'failed'].includes(verdict(result))),
      ({ status, reason }) => reason ?? `HTTP ${status}`,
    ),
    latencyMs: { p50: ms(0.5), p95: ms(0.95), p99: ms(0.99), max: ms(1) },
    ...(run.interrupted && { interrupted: run.interrupted }),
    durationMs: Math.round(run.durationMs),
    deliveriesPerSecond: run.durationMs > 0 ? Math.round((sent / run.durationMs) * 1000) : 0,
  };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

export function formatSummary(summary: Summary): string {
  const { planned, interrupted, latencyMs: ms } = summary;
  const statuses = Object.entries(summary.statuses).map(([status, n]) => `${status} ×${n}`);
  const lines: [string, string | false | undefined][] = [
    [
      'interrupted',
      interrupted &&
        `${interrupted.notSent} not sent, ${interrupted.inFlight} in flight (outcome unknown: they may have been recorded)`,
    ],
    [
      'planned',
      `${planned.originals} new, ${planned.redeliveries} redelivered, ${planned.conflicting} conflicting`,
    ],
    ['recorded', `${summary.recorded}`],
    ['duplicates', `${summary.duplicates}`],
    ['conflicts', `${summary.conflicts}`],
    ['rejected', `${summary.rejected}`],
    [
      'accepted',
      summary.acceptedOther > 0 && `${summary.acceptedOther} (2xx without x-callback-outcome)`,
    ],
    ['failed', `${summary.failed}${summary.failed ? ' (no success after all attempts)' : ''}`],
    ['retries', `${summary.retries} (${summary.attempts} attempts)`],
    ['latency', `p50 ${ms.p50} ms, p95 ${ms.p95} ms, p99 ${ms.p99} ms, max ${ms.max} ms`],
    ['statuses', statuses.join(', ') || '-'],
  ];
  return [
    `Sent ${summary.sent} callbacks to ${summary.url} in ${(summary.durationMs / 1000).toFixed(1)} s ` +
      `(${summary.deliveriesPerSecond}/s, concurrency ${summary.concurrency}, seed ${summary.seed})\n`,
    ...lines.flatMap(([label, value]) => (value ? [`  ${label.padEnd(11)}  ${value}\n`] : [])),
    ...Object.entries(summary.problems).map(([reason, n]) => `  ×${n}  ${reason}\n`),
  ].join('');
}
