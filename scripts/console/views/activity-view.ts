import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import {
  type ActivityRange,
  type ActivitySeries,
  activityRanges,
  isActivityRange,
  outcomeClasses,
} from '../activity/activity-source.js';
import { ownAsset } from '../assets.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
import { activityFigures, utc } from './activity-figures.js';

ownAsset('activity.js');

const rangeTitles: Record<ActivityRange, string> = { hour: 'Last hour', day: 'Last day' };

/**
 * Callbacks per minute by outcome and latency p50/p99, charted by uPlot in the browser
 * (activity.js, fed by `/activity/data`) and written out as tables for anyone without the chart.
 */
export function activityView(app: Hono<ConsoleEnv>, console: ConsoleContext): void {
  app.get('/activity', async (c) => {
    const range = rangeOf(c);
    const source = console.activity;
    if (source === undefined) {
      return show(
        c,
        console,
        range,
        html`<p class="notice">No activity figures in this console: it
was started without a source for them (local mode's recorder or a stack's CloudWatch metrics).</p>`,
      );
    }
    let series: ActivitySeries;
    try {
      series = await source.series(range);
    } catch (error) {
      return show(c, console, range, unavailable(error));
    }
    return show(
      c,
      console,
      range,
      html`${about(series)}
<div id="activity-charts" class="activity-charts" data-range="${range}" aria-hidden="true">
<h2>Callbacks per minute</h2><div class="activity-chart" id="chart-counts"></div>
<h2>Latency (ms)</h2><div class="activity-chart" id="chart-latency"></div>
<p class="muted" id="chart-status">Drawing the charts…</p>
</div>
${activityFigures(series)}`,
    );
  });

  // The charts' data: the same figures as the page's tables, as JSON.
  app.get('/activity/data', async (c) => {
    const source = console.activity;
    if (source === undefined) return c.json({ error: 'no activity source' }, 404);
    try {
      const series = await source.series(rangeOf(c));
      return c.json({ ...series, classes: outcomeClasses });
    } catch (error) {
      return c.json({ error: errorName(error) }, 502);
    }
  });
}

/** `?range=`: `hour` (the default) or `day`. */
function rangeOf(c: Context<ConsoleEnv>): ActivityRange {
  const range = c.req.query('range');
  return isActivityRange(range) ? range : 'hour';
}

function show(
  c: Context<ConsoleEnv>,
  console: ConsoleContext,
  range: ActivityRange,
  body: unknown,
) {
  const ranges = Object.keys(activityRanges) as ActivityRange[];
  return page(c, console, {
    title: 'Activity',
    section: '/activity',
    scripts: ['uplot.min.js', 'activity.js'],
    styles: ['uplot.min.css'],
    body: html`<nav aria-label="Range" class="range-switch"><ul>${ranges.map(
      (r) =>
        html`<li><a href="/activity?range=${r}"${r === range ? html` aria-current="page"` : ''}>${rangeTitles[r]}</a></li>`,
    )}<li><a href="/activity?range=${range}">Refresh</a></li></ul></nav>
${body}`,
  });
}

/** Where the figures come from, and what that means for reading them. */
function about(series: ActivitySeries) {
  const { source } = series;
  if (source.kind === 'local') {
    return html`<p class="notice">Counted by this <code>npm start</code> since
<time datetime="${source.since}">${utc(source.since)} UTC</time>: the figures start empty at each
start. Latency is from the request's arrival at the local gateway to its answer, kept in buckets
(within about 9%).</p>`;
  }
  return html`<p class="notice">From CloudWatch: the receiver's outcome metrics in namespace
<code>${shown(source.namespace)}</code> and API Gateway's <code>Latency</code> of
<code>${shown(source.apiName)}</code>. CloudWatch shows a minute a few minutes after it ends.</p>`;
}

function unavailable(error: unknown) {
  return html`<p class="notice error" role="alert">The activity figures could not be read
(${shown(errorName(error))}). Refresh to try again.</p>`;
}

/** The error's name only: an SDK message may quote a request or an account. */
function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'unknown error';
}
