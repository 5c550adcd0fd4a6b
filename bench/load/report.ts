import type { PhaseResult } from '../support/load-phase.js';

export interface VerificationRow {
  readonly phase: string;
  /** References answered 204 at the first attempt. */
  readonly firstAnswer204: number;
  /** References sent again because the first answer was not a 204 or never came. */
  readonly retried: number;
  /** Of those, answered `duplicate`: stored by the first attempt after all. */
  readonly alreadyStored: number;
  /** Distinct references answered 204, first or on retry. */
  readonly acknowledged: number;
  /** Items in the table for the phase's references. */
  readonly stored: number;
  /** 204s without an item: must be 0. */
  readonly missing: number;
  /** Items without a 204: must be 0. */
  readonly unacknowledged: number;
  readonly ok: boolean;
}

export interface Verification {
  readonly rows: readonly VerificationRow[];
  readonly ok: boolean;
}

/** The figures as a plain-text table, ready for a terminal or a README. */
export function formatReport(input: {
  engine: string;
  machine: string;
  sustained: number;
  phases: readonly PhaseResult[];
  verification: Verification;
}): string {
  const header = [
    'phase',
    'target',
    'conns',
    'requests',
    'req/s',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'max ms',
    'statuses',
    'errors',
    'timeouts',
  ];
  const rows = input.phases.map((phase) => [
    phase.name,
    phase.rate ? `${phase.rate}/s` : 'max',
    String(phase.connections),
    String(phase.throughput.total),
    phase.throughput.mean.toFixed(0),
    String(phase.latencyMs.p50),
    String(phase.latencyMs.p90),
    String(phase.latencyMs.p99),
    String(phase.latencyMs.max),
    Object.entries(phase.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' '),
    String(phase.errors),
    String(phase.timeouts),
  ]);
  const checks = input.verification.rows.map((row) => [
    row.phase,
    String(row.firstAnswer204),
    `${row.retried} (${row.alreadyStored} already stored)`,
    String(row.acknowledged),
    String(row.stored),
    String(row.missing),
    String(row.unacknowledged),
    row.ok ? 'ok' : 'FAILED',
  ]);
  return [
    `Load on the local server over ${input.engine}, autocannon on loopback; calibrated at ${input.sustained.toFixed(0)} req/s`,
    input.machine,
    '',
    table(header, rows),
    '',
    'Stored items against 204s for distinct references (non-204s resent until 204, as a gateway does):',
    table(
      [
        'phase',
        '204 at once',
        'resent',
        '204 in all',
        'stored',
        '204 without item',
        'item without 204',
        'check',
      ],
      checks,
    ),
  ].join('\n');
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}
