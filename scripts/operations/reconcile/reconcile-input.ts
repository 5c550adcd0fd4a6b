import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { text } from 'node:stream/consumers';
import { optionalWindow, type TimeWindow, timeWindow } from '../../table/time-window.js';
import type { ReportFormat } from './gateway-report.js';

/**
 * What reconcile reads besides the table, shared by `npm run reconcile` and the console's
 * Reconcile view: the window (yesterday by default) and the report's format.
 */

/** A day by default: the daily reconcile compares yesterday's report with yesterday. */
export function reconcileWindow(since?: string, until?: string, now = new Date()): TimeWindow {
  const window = optionalWindow(since, until);
  if (window) return window;
  const today = new Date(now);
  today.setUTCHours(0, 0, 0, 0);
  const yesterday = new Date(today.getTime() - 86_400_000);
  return timeWindow(yesterday.toISOString(), today.toISOString());
}

/**
 * By the extension of `name` (the path, or an uploaded file's own name); else JSON Lines when
 * the first non-blank character of the file at `path` is `{`, CSV otherwise.
 */
export async function detectFormat(path: string, name = path): Promise<ReportFormat> {
  const extension = extname(name).toLowerCase();
  if (extension === '.csv' || path === '-') return 'csv';
  if (['.jsonl', '.ndjson', '.json'].includes(extension)) return 'jsonl';
  const start = await text(createReadStream(path, { end: 511 }));
  return start
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{')
    ? 'jsonl'
    : 'csv';
}
