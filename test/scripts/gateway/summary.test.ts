import { describe, expect, it } from 'vitest';
import type { DeliveryResult } from '../../../scripts/gateway/deliver.js';
import { planDeliveries } from '../../../scripts/gateway/delivery-plan.js';
import { seededRandom } from '../../../scripts/gateway/seeded-random.js';
import { formatSummary, summarize } from '../../../scripts/gateway/summary.js';

/**
 * What simulate prints at the end (and `--json`): each delivery counted once by its final
 * answer, retries and latency over every attempt, the reasons for refusals and failures.
 */

const plan = planDeliveries(seededRandom('summary'), {
  count: 10,
  duplicates: 0.2,
  conflicts: 0.1,
});
const context = { url: 'http://127.0.0.1:3000/callback', seed: 'summary', concurrency: 4 };

const answered = (status: number, latencies: number[], extra: Partial<DeliveryResult> = {}) => ({
  attempts: latencies.map((latencyMs) => ({ status, latencyMs })),
  status,
  ...extra,
});

describe('the simulation summary', () => {
  it('counts each delivery once by its final answer, and the attempts it took', () => {
    const results: DeliveryResult[] = [
      answered(204, [10], { outcome: 'recorded' }),
      answered(204, [20], { outcome: 'recorded' }),
      // A 503 then a 204: one recorded delivery, one retry.
      {
        attempts: [
          { status: 503, latencyMs: 5 },
          { status: 204, latencyMs: 30 },
        ],
        status: 204,
        outcome: 'recorded',
      },
      answered(204, [40], { outcome: 'duplicate' }),
      answered(200, [50]), // a 2xx without x-callback-outcome: another receiver
      answered(409, [60], { reason: '409 Conflict: the reference is recorded with other content' }),
      answered(403, [70], { reason: '403 Hash mismatch: check the key' }),
      answered(403, [80], { reason: '403 Hash mismatch: check the key' }),
      answered(400, [90]), // no reason: its status speaks for it
      answered(429, [100, 100, 100], { reason: '429 Too Many Requests: lower --concurrency' }),
    ];
    results.push({ attempts: [{ error: 'ECONNRESET', latencyMs: 1 }], reason: 'reset' });

    const summary = summarize(plan, { results, durationMs: 2000 }, context);

    expect(summary).toMatchObject({
      ...context,
      planned: { originals: 7, redeliveries: 2, conflicting: 1 },
      sent: 11,
      attempts: 14,
      retries: 3,
      recorded: 3,
      duplicates: 1,
      conflicts: 1,
      acceptedOther: 1,
      rejected: 3,
      failed: 2,
      statuses: { '200': 1, '204': 4, '400': 1, '403': 2, '409': 1, '429': 1, none: 1 },
      problems: {
        '403 Hash mismatch: check the key': 2,
        'HTTP 400': 1,
        '429 Too Many Requests: lower --concurrency': 1,
        reset: 1,
      },
      // Nearest rank over all 14 attempts, retries included.
      latencyMs: { p50: 50, p95: 100, p99: 100, max: 100 },
      durationMs: 2000,
      deliveriesPerSecond: 6,
    });
    expect(summary).not.toHaveProperty('interrupted');
  });

  it('prints one line per figure, the other receiver’s 2xx and failures explained', () => {
    const results: DeliveryResult[] = [
      answered(204, [12.34], { outcome: 'recorded' }),
      answered(200, [8]),
      { attempts: [{ error: 'timeout', latencyMs: 30_000 }], reason: 'no answer' },
    ];

    const text = formatSummary(summarize(plan, { results, durationMs: 1500 }, context));

    expect(text).toContain(
      'Sent 3 callbacks to http://127.0.0.1:3000/callback in 1.5 s (2/s, concurrency 4, seed summary)\n',
    );
    expect(text).toContain('  planned      7 new, 2 redelivered, 1 conflicting\n');
    expect(text).toContain('  accepted     1 (2xx without x-callback-outcome)\n');
    expect(text).toContain('  failed       1 (no success after all attempts)\n');
    expect(text).toContain('  statuses     200 ×1, 204 ×1, none ×1\n');
    expect(text).toContain('  ×1  no answer\n');
    expect(text).toContain(
      '  latency      p50 12.3 ms, p95 30000 ms, p99 30000 ms, max 30000 ms\n',
    );
    expect(text).not.toContain('interrupted');
  });

  it('says how much an interrupted run left unsent and in flight', () => {
    const results = [answered(204, [10], { outcome: 'recorded' }), undefined, undefined];

    const summary = summarize(
      plan,
      { results, durationMs: 100, interrupted: { notSent: 1, inFlight: 1 } },
      context,
    );

    expect(summary.sent).toBe(1);
    expect(formatSummary(summary)).toContain(
      '  interrupted  1 not sent, 1 in flight (outcome unknown: they may have been recorded)\n',
    );
  });

  it('with nothing sent, shows zeros and a dash rather than dividing by nothing', () => {
    const summary = summarize(plan, { results: [], durationMs: 0 }, context);
    const text = formatSummary(summary);

    expect(summary.latencyMs).toEqual({ p50: 0, p95: 0, p99: 0, max: 0 });
    expect(summary.deliveriesPerSecond).toBe(0);
    expect(text).toContain('  failed       0\n');
    expect(text).toContain('  statuses     -\n');
    expect(text).not.toContain('accepted');
  });
});
