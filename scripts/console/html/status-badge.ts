import { html } from 'hono/html';
import { shown } from './shown-text.js';

/** The gateway's verdict as a badge: the word always, green or red beside it. */
export function statusBadge(status: string) {
  const tone = status === 'Confirm' ? 'ok' : status === 'Reject' ? 'bad' : 'neutral';
  return html`<span class="badge ${tone}">${shown(status)}</span>`;
}
