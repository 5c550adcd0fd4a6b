import { html } from 'hono/html';
import { type ActivitySeries, outcomeClasses } from '../activity/activity-source.js';

/**
 * The charts' figures as tables, for screen readers and anyone without the canvas: the range's
 * totals and latency, then every minute that had a callback (a day can have 1,440).
 */
export function activityFigures(series: ActivitySeries) {
  const active = series.minutes
    .map((minute, i) => ({ minute, i }))
    .filter(({ i }) => outcomeClasses.some(({ key }) => (series.counts[key][i] ?? 0) > 0));
  const total = outcomeClasses.reduce((sum, { key }) => sum + series.totals[key], 0);
  return html`<h2 id="figures">Figures</h2>
<div class="table-wrap"><table class="activity-totals" aria-labelledby="figures">
<caption class="muted"><span data-total>${total} callback${total === 1 ? '' : 's'}</span> in the ${series.range === 'hour' ? 'last hour' : 'last day'} (with the charts, updated every 30 s)</caption>
<thead><tr><th scope="col">Outcome</th><th scope="col">Answer</th><th scope="col" class="num">Callbacks</th></tr></thead>
<tbody>${outcomeClasses.map(
    ({ key, label, answer }) =>
      html`<tr data-outcome="${key}"><th scope="row">${label}</th><td>${answer}</td><td class="num">${series.totals[key]}</td></tr>`,
  )}</tbody>
<tbody><tr data-latency="p50"><th scope="row">Latency p50</th><td>ms</td><td class="num">${ms(series.overall.p50)}</td></tr>
<tr data-latency="p99"><th scope="row">Latency p99</th><td>ms</td><td class="num">${ms(series.overall.p99)}</td></tr></tbody>
</table></div>
<details class="activity-minutes">
<summary>Per minute (${active.length} minute${active.length === 1 ? '' : 's'} with callbacks, UTC; as loaded, Refresh for newer)</summary>
${
  active.length === 0
    ? html`<p class="muted">No callbacks in this range.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Minute (UTC)</th>${outcomeClasses.map(({ label }) => html`<th scope="col" class="num">${label}</th>`)}<th scope="col" class="num">p50 ms</th><th scope="col" class="num">p99 ms</th></tr></thead>
<tbody>${active.map(
        ({ minute, i }) =>
          html`<tr><th scope="row"><time datetime="${new Date(minute * 1_000).toISOString()}">${utc(new Date(minute * 1_000).toISOString())}</time></th>${outcomeClasses.map(
            ({ key }) => html`<td class="num">${series.counts[key][i] ?? 0}</td>`,
          )}<td class="num">${ms(series.latency.p50[i] ?? null)}</td><td class="num">${ms(series.latency.p99[i] ?? null)}</td></tr>`,
      )}</tbody>
</table></div>`
}
</details>`;
}

/** Milliseconds as read: one decimal under 10 ms, whole above; a dash for no callbacks. */
function ms(value: number | null): string {
  if (value === null) return '–';
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}

/** `2026-11-25T12:03:00.000Z` as `2026-11-25 12:03`. */
export function utc(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}
