import { type ResultRow, ratio } from './result-row.js';

/** A value in its unit, with as many decimals as the unit deserves. */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '–';
  const decimals = unit === 'KB' || unit === 'ms' ? 1 : 0;
  return value.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

export function formatRatio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '–' : `${value.toFixed(2)}×`;
}

export function oursOverBaseline(row: ResultRow): string {
  return formatRatio(ratio(row));
}

export function oursOverFloor(row: ResultRow): string {
  return row.floor === undefined || row.floor === 0 ? '' : formatRatio(row.ours / row.floor);
}

export function formatTarget(row: ResultRow): string {
  if (!row.target) return '';
  return `${row.target.text}: ${row.target.met ? 'met' : '**missed**'}`;
}
