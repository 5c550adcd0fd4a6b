/** One line of the results table: a metric for ours and the baseline, and where set the floor. */
export interface ResultRow {
  readonly section: Section;
  readonly metric: string;
  readonly unit: string;
  readonly ours: number;
  readonly baseline: number;
  /** The bare-SDK bundle (cold start rows only). */
  readonly floor?: number;
  /** Whether smaller is better: decides how the table reads the ratio. */
  readonly lowerIsBetter: boolean;
  /** The target for this row, and whether the run met it. */
  readonly target?: Target;
}

export interface Target {
  readonly text: string;
  readonly met: boolean;
}

export const sections = [
  'DynamoDB requests per callback',
  'Handler CPU per callback',
  'Cold start',
  'End to end',
] as const;
export type Section = (typeof sections)[number];

/** Ours divided by the baseline; undefined where the baseline is zero. */
export function ratio(row: ResultRow): number | undefined {
  return row.baseline === 0 ? undefined : row.ours / row.baseline;
}
