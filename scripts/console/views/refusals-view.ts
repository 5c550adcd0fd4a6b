import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { UsageError } from '../../cli/cli-errors.js';
import { explainNetworkFailure } from '../../gateway/delivery-failure.js';
import { refusalListView } from '../../query/refusal-view.js';
import {
  digestPrefix,
  findRefusal,
  firstReceivedTimes,
  listRefusalSummaries,
} from '../../table/kept-refusals.js';
import { timeWindow } from '../../table/time-window.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { refuseReadOnly } from '../html/actions-off.js';
import { page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
import { type ResubmitOutcome, refusalPage, resubmit } from './refusal-page.js';

/** Rows a list page shows at most (two key reads for their first times); filters find the rest. */
const listLimit = 200;

/**
 * Kept refusals as `npm run query -- refused` lists them (newest first, from the refusals index,
 * no body read), one refusal whole, and resubmitting it: `resubmitRefusal`, what
 * `npm run resubmit` sends, to the receiver the console was given.
 */
export function refusalsView(app: Hono<ConsoleEnv>, console: ConsoleContext): void {
  const context = { client: console.tables.client, tableName: console.tables.refusalsTableName };

  app.get('/refusals', async (c) => {
    const filters = {
      since: c.req.query('since')?.trim(),
      reference: c.req.query('reference')?.trim(),
    };
    let since: string | undefined;
    try {
      since = filters.since ? timeWindow(filters.since, undefined).since : undefined;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      c.status(400);
      return listPage(c, console, filters, [], false, new Map(), error.message);
    }
    const rows = [];
    let more = false;
    const reference = filters.reference || undefined;
    for await (const refusal of listRefusalSummaries(context, { since, reference })) {
      if (rows.length === listLimit) {
        more = true;
        break;
      }
      rows.push(refusal);
    }
    const firsts = await firstReceivedTimes(
      context,
      rows.map((refusal) => refusal.digest),
    );
    return listPage(c, console, filters, rows, more, firsts);
  });

  app.get('/refusals/:digest', async (c) => {
    const found = await refusalNamed(c.req.param('digest'));
    if (typeof found === 'string') return notFound(c, found);
    return refusalPage(c, console, found);
  });

  app.post('/refusals/:digest/resubmit', async (c) => {
    if (!console.allowActions) return refuseReadOnly(c);
    if (!console.receiver) {
      return c.text('Refused: no receiver is configured for resubmit; nothing was sent.', 503);
    }
    const found = await refusalNamed(c.req.param('digest'));
    if (typeof found === 'string') return notFound(c, found);
    const form = await c.req.parseBody();
    const type = typeof form.contentType === 'string' ? form.contentType.trim() : '';
    let outcome: ResubmitOutcome;
    try {
      outcome = await resubmit(found, console.receiver, type);
    } catch (error) {
      const timeoutMs = console.receiver.timeoutMs ?? 10_000;
      c.status(502);
      outcome = { ok: false, text: explainNetworkFailure(error, console.receiver.url, timeoutMs) };
    }
    // Read again: a refusal repeated is counted on the kept one.
    const now = await refusalNamed(found.digest);
    return refusalPage(c, console, typeof now === 'string' ? found : now, outcome);
  });

  /** The refusal a whole digest or a prefix of one names, or why none is shown. */
  async function refusalNamed(digest: string) {
    try {
      const found = await findRefusal(context, digestPrefix('the digest', digest));
      return found ?? `No kept refusal ${digest}: it may have expired (kept 90 days by default).`;
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
  }
}

function notFound(c: Context<ConsoleEnv>, why: string) {
  return c.text(why, 404);
}

type Summary = Parameters<typeof refusalListView.tableRows>[0];

function listPage(
  c: Context<ConsoleEnv>,
  console: ConsoleContext,
  filters: { readonly since?: string | undefined; readonly reference?: string | undefined },
  rows: readonly Summary[],
  more: boolean,
  firsts: ReadonlyMap<string, string>,
  problem?: string,
) {
  const caption =
    rows.length === 0
      ? 'No kept refusals match.'
      : `${rows.length} kept refusal${rows.length === 1 ? '' : 's'}, newest first${more ? ` (the newest ${listLimit}: narrow with Since or Reference for older ones)` : ''}`;
  return page(c, console, {
    title: 'Refusals',
    section: '/refusals',
    body: html`<p>Authenticated deliveries refused for their content (400, 403, 413, 415, 422),
kept with their body so they can be looked at and sent again once the cause is fixed.</p>
<form class="filters" method="get" action="/refusals" role="search">
<label>Since (UTC)<input name="since" value="${filters.since ?? ''}" placeholder="2026-11-25"></label>
<label>Reference<input name="reference" value="${filters.reference ?? ''}"></label>
<button type="submit">Filter</button> <a href="/refusals">Clear</a>
</form>
${problem ? html`<p class="notice error" role="alert">${shown(problem)}</p>` : ''}
<div class="table-wrap"><table>
<caption class="muted">${caption}</caption>
<thead><tr>${['First received', ...refusalListView.tableHead].map((title) => html`<th scope="col">${title}</th>`)}</tr></thead>
<tbody id="refusals">${rows.map((refusal) => row(refusal, firsts.get(refusal.digest) ?? ''))}</tbody>
</table></div>`,
  });
}

/** When it first came, then the CLI's columns; the digest links to the refusal. */
function row(refusal: Summary, first: string) {
  const [cells = []] = refusalListView.tableRows(refusal);
  const numeric = new Set<number>(refusalListView.alignRight);
  const last = cells.length - 1;
  return html`<tr><td>${shown(first)}</td>${cells.map((cell, index) =>
    index === last
      ? html`<td><a href="/refusals/${encodeURIComponent(refusal.digest)}" class="mono">${shown(cell)}</a></td>`
      : html`<td${numeric.has(index) ? html` class="num"` : ''}>${shown(cell)}</td>`,
  )}</tr>`;
}
