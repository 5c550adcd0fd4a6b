import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { UsageError } from '../../cli/cli-errors.js';
import { explainNetworkFailure } from '../../gateway/delivery-failure.js';
import { refusalListView } from '../../operations/refusal-listing.js';
import {
  isResolved,
  maxResolutionReasonLength,
  type RefusalResolution,
  ResolveRefusedError,
  resolutionsOf,
  resolveRefusal,
} from '../../operations/refusals/refusal-resolution.js';
import { operatorIdentity } from '../../operations/settle/operator-identity.js';
import {
  digestPrefix,
  findRefusal,
  firstReceivedTimes,
  listRefusalSummaries,
  type RefusalCursor,
} from '../../table/kept-refusals.js';
import type { KeptRefusal } from '../../table/refusal-item.js';
import { timeWindow } from '../../table/time-window.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { refuseReadOnly } from '../html/actions-off.js';
import { csrfField, page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
import { timeOf } from '../html/times.js';
import { type BulkOutcome, bulkConfirmation, bulkOutcomes, selectedValues } from './bulk-action.js';
import { type ResubmitOutcome, refusalPage, resubmit } from './refusal-page.js';

/** Which refusals the list shows: not yet dealt with (the default), dealt with, or both. */
type StateFilter = 'open' | 'resolved' | 'all';

/** Index entries the open or resolved list reads at most to fill a page (then says so). */
const stateScanLimit = 1000;

/** Hex digits of each digest a cursor keeps: enough to tell refusals apart, short in a URL. */
const cursorDigits = 16;

/** A page cursor from the URL, or none when missing or not one of ours (the list starts over). */
function decodeBefore(text: string | undefined): RefusalCursor | undefined {
  if (!text) return undefined;
  try {
    const { at, seen } = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) ?? {};
    const valid =
      typeof at === 'string' &&
      Array.isArray(seen) &&
      seen.every((digest) => typeof digest === 'string' && /^[0-9a-f]{1,64}$/.test(digest));
    return valid ? { at, seen } : undefined;
  } catch {
    return undefined;
  }
}

/** Rows a list page shows at most (two key reads for their first times); filters find the rest. */
const listLimit = 200;

/**
 * Kept refusals as `npm run query -- refused` lists them (newest first, from the refusals index,
 * no body read), one refusal whole, and resubmitting it: `resubmitRefusal`, what
 * `npm run resubmit` sends, to the receiver the console was given.
 */
export function refusalsView(app: Hono<ConsoleEnv>, console: ConsoleContext): void {
  const context = { client: console.tables.client, tableName: console.tables.refusalsTableName };
  const operator =
    console.operator ?? (() => operatorIdentity({ aws: console.mode === 'deployed' }));

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
      return listPage(c, console, filters, [], false, new Map(), { problem: error.message });
    }
    const state = stateOf(c.req.query('state'));
    const before = decodeBefore(c.req.query('after'));
    const asked = Number(c.req.query('size'));
    const limit = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, listLimit) : listLimit;
    const rows: Summary[] = [];
    let more = false;
    let stoppedShort = false;
    const reference = filters.reference || undefined;
    const resolutions = new Map<string, RefusalResolution>();
    // Where this page stops: the last entry looked at (shown or not in the chosen state), and
    // every one at its very time, so the next page neither repeats nor skips one.
    let lastAt: string | undefined;
    let seenAtLast: string[] = [];
    const examine = (refusal: Summary) => {
      if (refusal.lastReceivedAt !== lastAt) {
        lastAt = refusal.lastReceivedAt;
        seenAtLast = before?.at === lastAt ? [...before.seen] : [];
      }
      seenAtLast.push(refusal.digest.slice(0, cursorDigits));
    };
    // Read in batches: each batch's resolutions by key, then only the rows in the chosen state.
    let batch: Summary[] = [];
    let examined = 0;
    const take = async () => {
      const found = await resolutionsOf(
        context,
        batch.map((refusal) => refusal.digest),
      );
      for (const refusal of batch) {
        const resolution = found.get(refusal.digest);
        const resolved = isResolved(resolution, refusal.lastReceivedAt);
        const wanted = state === 'all' || (state === 'resolved') === resolved;
        if (wanted && rows.length === limit) {
          more = true;
          break;
        }
        examine(refusal);
        if (!wanted) continue;
        if (resolution) resolutions.set(refusal.digest, resolution);
        rows.push(refusal);
      }
      batch = [];
    };
    // A page and one more from each partition, and resolutions read for as many: the page
    // costs the same however many refusals are kept (more only while resolved ones are skipped).
    const batchSize = Math.min(100, limit + 1);
    const listed = listRefusalSummaries(context, {
      pageSize: limit + 1,
      ...(since ? { since } : {}),
      ...(reference ? { reference } : {}),
      ...(before ? { before } : {}),
    });
    for await (const refusal of listed) {
      batch.push(refusal);
      examined += 1;
      if (batch.length === batchSize) await take();
      if (more) break;
      if (state !== 'all' && examined >= stateScanLimit) {
        stoppedShort = true;
        break;
      }
    }
    if (!more && batch.length > 0) await take();
    const firsts = await firstReceivedTimes(
      context,
      rows.map((refusal) => refusal.digest),
    );
    const next =
      (more || stoppedShort) && lastAt !== undefined
        ? Buffer.from(JSON.stringify({ at: lastAt, seen: seenAtLast })).toString('base64url')
        : undefined;
    return listPage(c, console, { ...filters, state }, rows, more || stoppedShort, firsts, {
      resolutions,
      pages: { first: before !== undefined, next, size: limit === listLimit ? undefined : limit },
    });
  });

  // Several refusals at once: resubmitted, or marked resolved with one reason. Each on its own,
  // so one that fails is reported while the others go ahead.
  app.post('/refusals/selected', async (c) => {
    if (!console.allowActions) return refuseReadOnly(c);
    const form = await c.req.parseBody({ all: true });
    const field = (name: string) => {
      const value = form[name];
      return typeof value === 'string' ? value : '';
    };
    const digests = selectedValues(form, 'item').filter((value) => /^[0-9a-f]{64}$/.test(value));
    const action = field('action');
    const reason = field('reason');
    const problem =
      digests.length === 0
        ? 'Select at least one refusal.'
        : action !== 'resubmit' && action !== 'resolve'
          ? 'Choose Resubmit selected or Mark selected resolved.'
          : action === 'resubmit' && !console.receiver
            ? 'Resubmit needs a receiver, and this console was given none.'
            : action === 'resolve' &&
                (reason.trim() === '' || reason.length > maxResolutionReasonLength)
              ? `Give a reason, up to ${maxResolutionReasonLength} characters: it is kept with each refusal.`
              : undefined;
    if (problem !== undefined) {
      c.status(422);
      return page(c, console, {
        title: 'Selected refusals',
        section: '/refusals',
        body: html`<p class="notice error" role="alert">${problem} Nothing was sent or written.</p><p><a href="/refusals">Back to the refusals</a></p>`,
      });
    }
    const count = `${digests.length} refusal${digests.length === 1 ? '' : 's'}`;
    if (field('confirmed') !== '1') {
      return page(c, console, {
        title: 'Selected refusals',
        section: '/refusals',
        body: bulkConfirmation(c, {
          action: '/refusals/selected',
          question:
            action === 'resubmit'
              ? `Resubmit ${count} to ${console.receiver?.url ?? ''}?`
              : `Mark ${count} resolved?`,
          button: action === 'resubmit' ? `Resubmit ${count}` : `Mark ${count} resolved`,
          cancel: '/refusals',
          items: digests.map((digest) => ({ value: digest, label: digest.slice(0, 16) })),
          fields: { action, reason },
        }),
      });
    }
    const outcomes: BulkOutcome[] = [];
    const by = await operator().catch(() => undefined);
    for (const digest of digests) {
      const href = `/refusals/${digest}`;
      const item = digest.slice(0, 16);
      const found = await refusalNamed(digest);
      if (typeof found === 'string') {
        outcomes.push({ item, href, ok: false, text: found });
        continue;
      }
      if (action === 'resolve') {
        if (by === undefined) {
          outcomes.push({
            item,
            href,
            ok: false,
            text: 'Not marked: who you are could not be established.',
          });
          continue;
        }
        try {
          await resolveRefusal(context, digest, {
            by,
            at: new Date().toISOString(),
            why: reason,
            how: 'marked',
          });
          outcomes.push({
            item,
            href,
            ok: true,
            text: `Marked resolved by ${by}: ${reason.trim()}`,
          });
        } catch (error) {
          if (!(error instanceof ResolveRefusedError)) throw error;
          outcomes.push({ item, href, ok: false, text: `Not marked: ${error.message}.` });
        }
        continue;
      }
      const outcome = await resubmitted(found, '');
      outcomes.push({ item, href, ok: outcome.ok, text: outcome.text });
    }
    return page(c, console, {
      title: 'Selected refusals',
      section: '/refusals',
      body: html`${bulkOutcomes(outcomes)}<p><a href="/refusals">Back to the open refusals</a></p>`,
    });
  });

  app.post('/refusals/:digest/resolve', async (c) => {
    if (!console.allowActions) return refuseReadOnly(c);
    const found = await refusalNamed(c.req.param('digest'));
    if (typeof found === 'string') return notFound(c, found);
    const form = await c.req.parseBody();
    const reason = typeof form.reason === 'string' ? form.reason : '';
    let outcome: ResubmitOutcome;
    try {
      const by = await operator();
      await resolveRefusal(context, found.digest, {
        by,
        at: new Date().toISOString(),
        why: reason,
        how: 'marked',
      });
      outcome = { ok: true, text: `Marked resolved by ${by}.` };
    } catch (error) {
      c.status(error instanceof ResolveRefusedError ? 422 : 503);
      outcome = { ok: false, text: `Not marked, nothing was written: ${message(error)}.` };
    }
    return refusalPage(c, console, found, outcome, await resolutionOfOne(found.digest));
  });

  app.get('/refusals/:digest', async (c) => {
    const found = await refusalNamed(c.req.param('digest'));
    if (typeof found === 'string') return notFound(c, found);
    return refusalPage(c, console, found, undefined, await resolutionOfOne(found.digest));
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
    const outcome = await resubmitted(found, type);
    if (outcome.unanswered) c.status(502);
    // Read again: a refusal repeated is counted on the kept one.
    const now = await refusalNamed(found.digest);
    const shownRefusal = typeof now === 'string' ? found : now;
    return refusalPage(c, console, shownRefusal, outcome, await resolutionOfOne(found.digest));
  });

  /**
   * Sends the kept body again; an answer in 2xx (the receiver recorded it, or had it already)
   * marks the refusal resolved, `resubmitted, 204 recorded`, by whoever sent it.
   */
  async function resubmitted(
    found: KeptRefusal,
    contentType: string,
  ): Promise<ResubmitOutcome & { readonly unanswered?: true }> {
    const receiver = console.receiver;
    if (!receiver) return { ok: false, text: 'Not sent: no receiver is configured for resubmit.' };
    let outcome: ResubmitOutcome;
    try {
      outcome = await resubmit(found, receiver, contentType);
    } catch (error) {
      const timeoutMs = receiver.timeoutMs ?? 10_000;
      return {
        ok: false,
        unanswered: true,
        text: explainNetworkFailure(error, receiver.url, timeoutMs),
      };
    }
    if (!outcome.ok || outcome.status === undefined) return outcome;
    const why = ['resubmitted,', outcome.status, outcome.outcome].filter(Boolean).join(' ');
    try {
      const by = await operator();
      await resolveRefusal(context, found.digest, {
        by,
        at: new Date().toISOString(),
        why,
        how: 'resubmitted',
      });
      // The page's State says so; the answer stays in the CLI's words.
      return outcome;
    } catch (error) {
      return { ...outcome, text: `${outcome.text} Not marked resolved: ${message(error)}.` };
    }
  }

  async function resolutionOfOne(digest: string): Promise<RefusalResolution | undefined> {
    return (await resolutionsOf(context, [digest])).get(digest);
  }

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
  filters: {
    readonly since?: string | undefined;
    readonly reference?: string | undefined;
    readonly state?: StateFilter;
  },
  rows: readonly Summary[],
  more: boolean,
  firsts: ReadonlyMap<string, string>,
  extra: {
    readonly problem?: string;
    readonly resolutions?: ReadonlyMap<string, RefusalResolution>;
    readonly pages?: {
      readonly first: boolean;
      readonly next?: string | undefined;
      readonly size?: number | undefined;
    };
  } = {},
) {
  const pages = extra.pages ?? { first: false };
  const state = filters.state ?? 'open';
  const resolutions = extra.resolutions ?? new Map<string, RefusalResolution>();
  const which = { open: 'open ', resolved: 'resolved ', all: '' }[state];
  const caption =
    rows.length === 0
      ? `No ${which}kept refusals match.`
      : `${rows.length} ${which}kept refusal${rows.length === 1 ? '' : 's'}, newest first${more || pages.first ? ' (this page)' : ''}`;
  const selectable = console.allowActions && rows.length > 0;
  const kept = (next: StateFilter, extraQuery: [string, string][] = []) => {
    const query = new URLSearchParams(
      Object.entries({ since: filters.since, reference: filters.reference }).flatMap(
        ([name, value]): [string, string][] => (value ? [[name, value]] : []),
      ),
    );
    if (next !== 'open') query.set('state', next);
    if (pages.size !== undefined && extraQuery.length > 0) query.set('size', String(pages.size));
    for (const [name, value] of extraQuery) query.set(name, value);
    return `/refusals${query.size > 0 ? `?${query}` : ''}`;
  };
  const current = (yes: boolean) => (yes ? html` aria-current="page"` : '');
  return page(c, console, {
    title: 'Refusals',
    section: '/refusals',
    body: html`<p>Authenticated deliveries refused for their content (400, 403, 413, 415, 422),
kept with their body so they can be looked at and sent again once the cause is fixed.</p>
<form class="filters" method="get" action="/refusals" role="search">
<label>Since (UTC)<input name="since" value="${filters.since ?? ''}" placeholder="2026-11-25"></label>
<label>Reference<input name="reference" value="${filters.reference ?? ''}"></label>
${state === 'open' ? '' : html`<input type="hidden" name="state" value="${state}">`}
<button type="submit">Filter</button> <a href="/refusals">Clear</a>
</form>
<nav class="pager" aria-label="Which refusals"><a href="${kept('open')}"${current(state === 'open')}>Open</a><a href="${kept('resolved')}"${current(state === 'resolved')}>Resolved</a><a href="${kept('all')}"${current(state === 'all')}>All</a></nav>
${extra.problem ? html`<p class="notice error" role="alert">${shown(extra.problem)}</p>` : ''}
${selectable ? html`<form method="post" action="/refusals/selected" id="refusals-selected">${csrfField(c)}</form>` : ''}
<div class="table-wrap"><table>
<caption class="muted">${caption}</caption>
<thead><tr>${selectable ? html`<th scope="col" class="select"><span class="visually-hidden">Select</span></th>` : ''}${['First received', ...refusalListView.tableHead, 'State'].map((title) => html`<th scope="col">${title}</th>`)}</tr></thead>
<tbody id="refusals">${rows.map((refusal) => row(refusal, firsts.get(refusal.digest) ?? '', resolutions.get(refusal.digest), selectable))}</tbody>
</table></div>
<nav class="pager" aria-label="Refusal pages">${pages.first ? html`<a href="${kept(state, pages.size ? [['size', String(pages.size)]] : [])}">First page</a>` : ''}${pages.next ? html`<a href="${kept(state, [['after', pages.next]])}" rel="next">Next page</a>` : ''}</nav>
${selectable ? selectedForm(console) : ''}`,
  });
}

/** The bulk form's fields, after the table: its rows' boxes belong to it by `form`. */
function selectedForm(console: ConsoleContext) {
  return html`<fieldset class="bulk" form="refusals-selected">
<legend>The selected refusals</legend>
<label>Reason (kept with each one marked resolved)<textarea name="reason" form="refusals-selected" maxlength="${maxResolutionReasonLength}" rows="2"></textarea></label>
<div class="actions">${console.receiver ? html`<button type="submit" form="refusals-selected" name="action" value="resubmit">Resubmit selected</button>` : ''}
<button type="submit" form="refusals-selected" name="action" value="resolve">Mark selected resolved</button></div>
</fieldset>`;
}

/** open, resolved (by whom, why) or open again (delivered again since it was dealt with). */
export function stateBadge(resolution: RefusalResolution | undefined, lastReceivedAt: string) {
  if (resolution === undefined) return html`<span class="badge open">open</span>`;
  if (!isResolved(resolution, lastReceivedAt)) {
    return html`<span class="badge open" title="resolved ${resolution.at} by ${resolution.by}, then delivered again">open again</span>`;
  }
  return html`<span class="badge ok" title="${resolution.at} by ${resolution.by}">resolved</span> <span class="muted">${shown(resolution.why)}</span>`;
}

function stateOf(text: string | undefined): StateFilter {
  return text === 'resolved' || text === 'all' ? text : 'open';
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const statusColumn = refusalListView.tableHead.indexOf('Status');

/** When it first came, then the CLI's columns, then its state; the digest links to the refusal. */
function row(
  refusal: Summary,
  first: string,
  resolution: RefusalResolution | undefined,
  selectable: boolean,
) {
  const [cells = []] = refusalListView.tableRows(refusal);
  const numeric = new Set<number>(refusalListView.alignRight);
  const last = cells.length - 1;
  const box = html`<td class="select"><input type="checkbox" name="item" form="refusals-selected" value="${refusal.digest}" aria-label="Select refusal ${refusal.digest.slice(0, 16)}"></td>`;
  return html`<tr>${selectable ? box : ''}<td>${timeOf(first)}</td>${cells.map((cell, index) =>
    index === last
      ? html`<td><a href="/refusals/${encodeURIComponent(refusal.digest)}" class="mono">${shown(cell)}</a></td>`
      : index === 0
        ? html`<td>${timeOf(cell)}</td>`
        : index === statusColumn
          ? html`<td><span class="badge bad">${shown(cell)}</span></td>`
          : html`<td${numeric.has(index) ? html` class="num"` : ''}>${shown(cell)}</td>`,
  )}<td>${stateBadge(resolution, refusal.lastReceivedAt)}</td></tr>`;
}
