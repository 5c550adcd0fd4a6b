import { UsageError } from '../cli/cli-errors.js';

/**
 * `[since, until)` as the ISO-8601 strings `receivedAt` holds. Any length: the time index costs
 * the same number of queries for a day as for ten years.
 */
export interface TimeWindow {
  readonly since: string;
  /** Inclusive upper bound for `BETWEEN`: one millisecond before `until`. */
  readonly lastIncluded: string;
}

export function timeWindow(since: string, until: string | undefined, now = new Date()): TimeWindow {
  const from = parseInstant('--since', since);
  const to = until === undefined ? new Date(now.getTime() + 1) : parseInstant('--until', until);
  if (until === undefined && from.getTime() > now.getTime()) {
    throw new UsageError(`--since ${since} is in the future: nothing has been received yet`);
  }
  if (to.getTime() <= from.getTime()) throw new UsageError('--until must be later than --since');
  return { since: from.toISOString(), lastIncluded: new Date(to.getTime() - 1).toISOString() };
}

/** `--since`/`--until` when given: none without `--since`, and `--until` alone is a mistake. */
export function optionalWindow(since?: string, until?: string): TimeWindow | undefined {
  if (since !== undefined) return timeWindow(since, until);
  if (until !== undefined) throw new UsageError('--until needs --since');
  return undefined;
}

/** An ISO-8601 date or date-time; a date alone is midnight UTC. */
function parseInstant(option: string, value: string): Date {
  const isoLike =
    /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
  const date = new Date(value.replace(' ', 'T'));
  if (!isoLike.test(value) || Number.isNaN(date.getTime())) {
    throw new UsageError(
      `${option} must be an ISO-8601 date or time (2026-11-22, 2026-11-22T10:00Z), got ${value}`,
    );
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  return date;
}

/** The last instant an ISO-8601 `receivedAt` can hold: a window with no end. */
const endOfTime = '9999-12-31T23:59:59.999Z';

/**
 * Everything received from `since` on, a future time included: a follower reads what a writer
 * whose clock runs ahead of this one stamped too.
 */
export function windowFrom(since: string): TimeWindow {
  return { since, lastIncluded: endOfTime };
}
