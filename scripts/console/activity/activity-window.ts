import {
  type ActivityRange,
  activityRanges,
  type OutcomeClass,
  outcomeClasses,
} from './activity-source.js';

/**
 * What every activity source works out alike, whatever keeps its figures: which minutes a range
 * covers, and what each class adds up to over it.
 */

export const minuteMs = 60_000;

/** The minutes of a range, the current one last: the first (minutes since the epoch) and how many. */
export function rangeMinutes(
  range: ActivityRange,
  now: number,
): { readonly first: number; readonly length: number } {
  const length = activityRanges[range];
  return { first: Math.floor(now / minuteMs) - length + 1, length };
}

/** Each class's callbacks over the whole range. */
export function totalsOf(
  counts: Readonly<Record<OutcomeClass, readonly number[]>>,
): Record<OutcomeClass, number> {
  return Object.fromEntries(
    outcomeClasses.map(({ key }) => [key, counts[key].reduce((sum, n) => sum + n, 0)]),
  ) as Record<OutcomeClass, number>;
}
