import {
  type ActivityRange,
  type ActivitySeries,
  type ActivitySource,
  activityRanges,
  type OutcomeClass,
  outcomeClasses,
  outcomeClassOf,
} from '../console/activity/activity-source.js';
import { minuteMs, rangeMinutes, totalsOf } from '../console/activity/activity-window.js';
import { latencyBucket, latencyBuckets, percentile } from './latency-histogram.js';

/** One answer of the local gateway to `POST /callback` (gateway-server.ts `onAnswer`). */
export interface GatewayAnswer {
  readonly status: number;
  /** The `x-callback-outcome` header, when the answer has one. */
  readonly outcome: string | undefined;
  /** From the request's arrival to its answer, as API Gateway's `Latency` metric measures. */
  readonly ms: number;
}

/** One minute's figures: a count per class and a latency histogram. */
interface Minute {
  minute: number;
  readonly counts: Uint32Array;
  readonly latency: Uint32Array;
}

/** A day of minutes: the longest range, and all the recorder ever keeps. */
const slots = activityRanges.day;
const classIndex = new Map<OutcomeClass, number>(outcomeClasses.map(({ key }, i) => [key, i]));

export type ActivityRecorder = ReturnType<typeof createActivityRecorder>;

/**
 * Local mode's activity figures, counted in this process: a ring of one slot per minute of the
 * last 24 hours, each slot reused once its minute is a day old, so memory stays bounded (at
 * most 1,440 slots of 71 counters) however long it runs. It starts empty at every start.
 */
export function createActivityRecorder(options: { readonly now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const since = new Date(now()).toISOString();
  const ring: (Minute | undefined)[] = new Array(slots).fill(undefined);

  /** The slot of `minute`, when it holds that minute (not an older one that shared its place). */
  const slotOf = (minute: number) => {
    const slot = ring[minute % slots];
    return slot?.minute === minute ? slot : undefined;
  };

  function record(answer: GatewayAnswer): void {
    const kind = outcomeClassOf(answer.status, answer.outcome);
    if (kind === undefined) return;
    const minute = Math.floor(now() / minuteMs);
    let slot = ring[minute % slots];
    if (slot === undefined) {
      slot = {
        minute,
        counts: new Uint32Array(outcomeClasses.length),
        latency: new Uint32Array(latencyBuckets),
      };
      ring[minute % slots] = slot;
    } else if (slot.minute !== minute) {
      slot.minute = minute;
      slot.counts.fill(0);
      slot.latency.fill(0);
    }
    const index = classIndex.get(kind) as number;
    slot.counts[index] = (slot.counts[index] as number) + 1;
    const bucket = latencyBucket(answer.ms);
    slot.latency[bucket] = (slot.latency[bucket] as number) + 1;
  }

  function seriesOf(range: ActivityRange): ActivitySeries {
    const { first, length } = rangeMinutes(range, now());
    const minutes: number[] = [];
    const counts = Object.fromEntries(
      outcomeClasses.map(({ key }) => [key, [] as number[]]),
    ) as Record<OutcomeClass, number[]>;
    const p50: (number | null)[] = [];
    const p99: (number | null)[] = [];
    const histograms: Uint32Array[] = [];
    for (let minute = first; minute < first + length; minute += 1) {
      const slot = slotOf(minute);
      minutes.push((minute * minuteMs) / 1_000);
      for (const [i, { key }] of outcomeClasses.entries()) counts[key].push(slot?.counts[i] ?? 0);
      p50.push(slot ? percentile([slot.latency], 50) : null);
      p99.push(slot ? percentile([slot.latency], 99) : null);
      if (slot) histograms.push(slot.latency);
    }
    return {
      range,
      minutes,
      counts,
      latency: { p50, p99 },
      totals: totalsOf(counts),
      overall: { p50: percentile(histograms, 50), p99: percentile(histograms, 99) },
      source: { kind: 'local', since },
    };
  }

  const recorder: ActivitySource & { record: typeof record; slotsInUse: () => number } = {
    /** Counts one answer; gateway-server.ts calls it (`onAnswer`) for every `POST /callback`. */
    record,
    series: async (range: ActivityRange) => seriesOf(range),
    /** Slots in use, for the test that memory stays bounded. */
    slotsInUse: () => ring.filter((slot) => slot !== undefined).length,
  };
  return recorder;
}
