/**
 * What the Activity view charts, whatever keeps the figures: local mode's in-process recorder
 * (scripts/local/activity-recorder.ts) or a deployed stack's CloudWatch metrics
 * (cloudwatch-activity.ts). Both answer per-minute counts by outcome class and per-minute
 * latency percentiles over the same two ranges.
 */

/** The window charted, and how many one-minute points it holds. */
export const activityRanges = { hour: 60, day: 1_440 } as const;
export type ActivityRange = keyof typeof activityRanges;

export function isActivityRange(value: unknown): value is ActivityRange {
  return typeof value === 'string' && Object.hasOwn(activityRanges, value);
}

/**
 * How a callback was answered, in the classes an operator tells apart: stored, stored before,
 * disputed, refused (by why: the key, the hash, the request itself), or not stored (retryable).
 * The order is the chart's and the table's.
 */
export const outcomeClasses = [
  { key: 'recorded', label: 'Recorded', answer: '204' },
  { key: 'duplicate', label: 'Duplicate', answer: '204' },
  { key: 'conflict', label: 'Conflict', answer: '409' },
  { key: 'unauthorized', label: 'Refused: key', answer: '401' },
  { key: 'hashRejected', label: 'Refused: hash', answer: '403' },
  { key: 'invalid', label: 'Refused: request', answer: '400, 413, 415, 422' },
  { key: 'failed', label: 'Failed', answer: '5xx' },
] as const;

export type OutcomeClass = (typeof outcomeClasses)[number]['key'];

/** One range's figures, one array entry per minute, oldest first. */
export interface ActivitySeries {
  readonly range: ActivityRange;
  /** Start of each minute, Unix seconds (uPlot's x values). */
  readonly minutes: readonly number[];
  readonly counts: Readonly<Record<OutcomeClass, readonly number[]>>;
  /** Milliseconds; null for a minute without a callback. */
  readonly latency: {
    readonly p50: readonly (number | null)[];
    readonly p99: readonly (number | null)[];
  };
  /** The whole range at once: callbacks per class, and latency over all of them. */
  readonly totals: Readonly<Record<OutcomeClass, number>>;
  readonly overall: { readonly p50: number | null; readonly p99: number | null };
  /** Where the figures come from, said on the page. */
  readonly source:
    | {
        readonly kind: 'local' /** ISO time the recorder started counting. */;
        readonly since: string;
      }
    | { readonly kind: 'cloudwatch'; readonly namespace: string; readonly apiName: string };
}

/** Gives the console its figures (ConsoleContext.activity). */
export interface ActivitySource {
  series(range: ActivityRange): Promise<ActivitySeries>;
}

/**
 * The class of one answer as the gateway saw it: a 2xx by the receiver's `x-callback-outcome`
 * (a 2xx without it is not this receiver's, and counts as nothing), a 4xx by its status, any 5xx
 * (the function's 500/503 or the gateway's own 502/504) as failed.
 */
export function outcomeClassOf(
  status: number,
  outcome: string | undefined,
): OutcomeClass | undefined {
  if (status >= 200 && status < 300) {
    return outcome === 'recorded' || outcome === 'duplicate' ? outcome : undefined;
  }
  if (status >= 500) return 'failed';
  if (status === 409) return 'conflict';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'hashRejected';
  if (status >= 400) return 'invalid';
  return undefined;
}
