import { html } from 'hono/html';
import { ownAsset } from '../assets.js';
import { shown } from './shown-text.js';

// Keeps each page's "3 min ago" current while it stays open (every page loads it: layout.ts).
ownAsset('relative-time.js');

/**
 * A stored time as the lists show it: the exact ISO time as the text (what an operator copies
 * and compares with a gateway's report), and how long ago in `data-ago`, which the stylesheet
 * draws beside it and assets/relative-time.js keeps current. Not a time: shown as it is.
 */
export function timeOf(iso: string, now: number = Date.now()) {
  const at = Date.parse(iso);
  if (iso === '' || Number.isNaN(at)) return shown(iso);
  return html`<time datetime="${iso}" data-ago="${ago(at, now)}">${shown(iso)}</time>`;
}

/** `just now`, `42 s ago`, `3 min ago`, `5 h ago`, `2 d ago`; `in 3 min` for a time ahead. */
export function ago(at: number, now: number): string {
  const seconds = Math.round((now - at) / 1000);
  const size = Math.abs(seconds);
  const amount =
    size < 60
      ? `${size} s`
      : size < 3600
        ? `${Math.floor(size / 60)} min`
        : size < 86_400
          ? `${Math.floor(size / 3600)} h`
          : `${Math.floor(size / 86_400)} d`;
  if (size < 5) return 'just now';
  return seconds >= 0 ? `${amount} ago` : `in ${amount}`;
}
