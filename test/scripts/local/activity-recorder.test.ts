import { describe, expect, it } from 'vitest';
import { outcomeClassOf } from '../../../scripts/console/activity/activity-source.js';
import { createActivityRecorder } from '../../../scripts/local/activity-recorder.js';
import {
  latencyBucket,
  latencyBuckets,
  percentile,
} from '../../../scripts/local/latency-histogram.js';

/** A percentile as the bucket can report it: within 2^(1/8) (about 9%) of the true value. */
const bucketPrecision = 2 ** (1 / 8);
function expectWithinBucket(reported: number | null, truth: number) {
  expect(reported).not.toBeNull();
  expect(reported as number).toBeGreaterThanOrEqual(truth / bucketPrecision);
  expect(reported as number).toBeLessThanOrEqual(truth * bucketPrecision);
}

/** The true nearest-rank percentile of a list of samples. */
function truePercentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1] as number;
}

const minute = 60_000;
const start = Date.UTC(2026, 10, 25, 12, 0, 0);

function clock(at = start) {
  const time = { at };
  return { time, now: () => time.at };
}

describe('the latency histogram', () => {
  it('puts each duration in a log-spaced bucket, four per doubling, the rest at the ends', () => {
    expect([0, 0.99, 1, 1.18, 1.19, 2, 4, 1_000].map(latencyBucket)).toEqual([
      0, 0, 1, 1, 2, 5, 9, 40,
    ]);
    expect(latencyBucket(-3)).toBe(0);
    expect(latencyBucket(Number.NaN)).toBe(0);
    expect(latencyBucket(10 * 60_000)).toBe(latencyBuckets - 1);
  });

  it('gives p50 and p99 within bucket precision for a known spread, and null for none', () => {
    // 1,000 samples from 2 ms to 2 s, spread geometrically: p50 ≈ 63 ms, p99 ≈ 1.9 s.
    const samples = Array.from({ length: 1_000 }, (_, i) => 2 * 1_000 ** (i / 999));
    const histogram = new Uint32Array(latencyBuckets);
    for (const ms of samples)
      histogram[latencyBucket(ms)] = (histogram[latencyBucket(ms)] ?? 0) + 1;

    expectWithinBucket(percentile([histogram], 50), truePercentile(samples, 50));
    expectWithinBucket(percentile([histogram], 99), truePercentile(samples, 99));
    expect(percentile([new Uint32Array(latencyBuckets)], 50)).toBeNull();
  });
});

describe('the activity recorder', () => {
  it('counts each answer in its minute and class', async () => {
    const { time, now } = clock(start + 5_000);
    const recorder = createActivityRecorder({ now });
    const answers: [number, string | undefined][] = [
      [204, 'recorded'],
      [204, 'recorded'],
      [204, 'duplicate'],
      [409, undefined],
      [401, undefined],
      [403, undefined],
      [422, undefined],
      [413, undefined],
      [503, undefined],
      [502, undefined],
    ];
    for (const [status, outcome] of answers) recorder.record({ status, outcome, ms: 10 });
    time.at += minute; // the next minute
    recorder.record({ status: 204, outcome: 'recorded', ms: 10 });

    const hour = await recorder.series('hour');

    expect(hour.minutes).toHaveLength(60);
    expect(hour.minutes.at(-1)).toBe((start + minute) / 1_000);
    expect(hour.counts.recorded.slice(-2)).toEqual([2, 1]);
    expect(hour.totals).toEqual({
      recorded: 3,
      duplicate: 1,
      conflict: 1,
      unauthorized: 1,
      hashRejected: 1,
      invalid: 2,
      failed: 2,
    });
    expect(hour.counts.recorded.slice(0, 58).every((n) => n === 0)).toBe(true);
    expect(hour.latency.p50.slice(0, 58).every((p) => p === null)).toBe(true);
    expect(hour.source).toEqual({ kind: 'local', since: new Date(start + 5_000).toISOString() });
  });

  it('leaves out a 2xx without the receiver outcome header, and anything below 400', () => {
    expect(outcomeClassOf(200, undefined)).toBeUndefined();
    expect(outcomeClassOf(204, 'something-else')).toBeUndefined();
    expect(outcomeClassOf(302, undefined)).toBeUndefined();
    expect(outcomeClassOf(429, undefined)).toBe('invalid');
  });

  it('computes p50 and p99 per minute and over the range within bucket precision', async () => {
    const { time, now } = clock();
    const recorder = createActivityRecorder({ now });
    // Minute 1: 100 fast answers (3..102 ms); minute 2: 100 slow ones (500..1,490 ms).
    const fast = Array.from({ length: 100 }, (_, i) => 3 + i);
    const slow = Array.from({ length: 100 }, (_, i) => 500 + 10 * i);
    for (const ms of fast) recorder.record({ status: 204, outcome: 'recorded', ms });
    time.at += minute;
    for (const ms of slow) recorder.record({ status: 204, outcome: 'recorded', ms });

    const { latency, overall } = await recorder.series('hour');

    expectWithinBucket(latency.p50.at(-2) ?? null, truePercentile(fast, 50));
    expectWithinBucket(latency.p99.at(-2) ?? null, truePercentile(fast, 99));
    expectWithinBucket(latency.p50.at(-1) ?? null, truePercentile(slow, 50));
    expectWithinBucket(overall.p50, truePercentile([...fast, ...slow], 50));
    expectWithinBucket(overall.p99, truePercentile([...fast, ...slow], 99));
  });

  it('drops minutes older than the range: an hour shows 60 minutes, a day 1,440', async () => {
    const { time, now } = clock();
    const recorder = createActivityRecorder({ now });
    recorder.record({ status: 204, outcome: 'recorded', ms: 5 });
    time.at += 61 * minute;
    recorder.record({ status: 204, outcome: 'duplicate', ms: 5 });

    expect((await recorder.series('hour')).totals.recorded).toBe(0);
    const day = await recorder.series('day');
    expect(day.minutes).toHaveLength(1_440);
    expect([day.totals.recorded, day.totals.duplicate]).toEqual([1, 1]);

    // A day later the first minute's slot is reused: its count is gone, not added to.
    time.at = start + 1_440 * minute;
    recorder.record({ status: 409, outcome: undefined, ms: 5 });
    const later = await recorder.series('day');
    expect([later.totals.recorded, later.totals.duplicate, later.totals.conflict]).toEqual([
      0, 1, 1,
    ]);
  });

  it('keeps at most one slot per minute of a day, however long it runs', () => {
    const { time, now } = clock();
    const recorder = createActivityRecorder({ now });
    // Three days of one callback a minute.
    for (let i = 0; i < 3 * 1_440; i += 1) {
      recorder.record({ status: 204, outcome: 'recorded', ms: 5 });
      time.at += minute;
    }
    expect(recorder.slotsInUse()).toBe(1_440);
  });
});
