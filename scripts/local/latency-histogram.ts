/**
 * A fixed, log-spaced latency histogram: bucket 0 holds everything under 1 ms, bucket i (≥ 1)
 * holds [2^((i-1)/4), 2^(i/4)) ms, and the last one everything above. Four buckets per doubling
 * keep a percentile within 9% of the true value (the bucket's geometric middle is reported)
 * in 64 counters, whatever the traffic: 2^(63/4) ms is about 55 s, beyond the gateway's 29 s.
 */
export const latencyBuckets = 64;
const perDoubling = 4;

/** The bucket a duration in milliseconds falls in. */
export function latencyBucket(ms: number): number {
  if (!(ms >= 1)) return 0; // also NaN and negatives: a clock step is not a latency
  const index = Math.floor(Math.log2(ms) * perDoubling) + 1;
  return Math.min(index, latencyBuckets - 1);
}

/** The value reported for a bucket: its geometric middle (0.5 ms for the first). */
export function bucketValue(index: number): number {
  if (index === 0) return 0.5;
  return 2 ** ((index - 0.5) / perDoubling);
}

/**
 * The `p`th percentile (0 < p ≤ 100) by nearest rank over one or more histograms added up:
 * the smallest bucket holding at least p% of the samples. Null when there are none.
 */
export function percentile(histograms: readonly ArrayLike<number>[], p: number): number | null {
  const merged = new Float64Array(latencyBuckets);
  let total = 0;
  for (const histogram of histograms) {
    for (let i = 0; i < latencyBuckets; i += 1) {
      const count = histogram[i] ?? 0;
      merged[i] = (merged[i] as number) + count;
      total += count;
    }
  }
  if (total === 0) return null;
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (let i = 0; i < latencyBuckets; i += 1) {
    seen += merged[i] as number;
    if (seen >= rank) return bucketValue(i);
  }
  return bucketValue(latencyBuckets - 1);
}
