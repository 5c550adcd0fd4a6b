import type { Hono } from 'hono';
import { html } from 'hono/html';
import { noteChanges } from '../../operations/events/change-notes.js';
import { operatorIdentity } from '../../operations/settle/operator-identity.js';
import {
  maxReasonLength,
  SettleRefusedError,
  settleConflict,
} from '../../operations/settle/settle.js';
import { settleOutcomeText } from '../../operations/settle/settle-outcome.js';
import { type ConflictView, conflictsPage, readReference } from '../../table/reference-state.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { refuseReadOnly } from '../html/actions-off.js';
import { csrfField, page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
import { timeOf } from '../html/times.js';
import { type BulkOutcome, bulkConfirmation, bulkOutcomes, selectedValues } from './bulk-action.js';
import { conflictPage, type SettleOutcome } from './conflict-page.js';
import { decodeKey, encodeKey } from './index-cursor.js';

/** Conflicts per page; `?size=` asks for 1 to 200. */
const defaultPageSize = 50;
const maxPageSize = 200;

/**
 * Conflicts as `npm run query -- conflicts` lists them (open ones, or all), one reference's
 * conflicts beside its stored transaction, and settling one: `settleConflict`, the very
 * operation `npm run settle` runs, with the operator named the way the CLI names them.
 */
export function conflictsView(app: Hono<ConsoleEnv>, console: ConsoleContext): void {
  const context = { client: console.tables.client, tableName: console.tables.tableName };
  const operator =
    console.operator ?? (() => operatorIdentity({ aws: console.mode === 'deployed' }));

  app.get('/conflicts', async (c) => {
    const all = c.req.query('all') === '1';
    const after = decodeKey(c.req.query('after'));
    const asked = Number(c.req.query('size'));
    const size =
      Number.isInteger(asked) && asked >= 1 ? Math.min(asked, maxPageSize) : defaultPageSize;
    const { conflicts, next } = await conflictsPage(context, {
      all,
      limit: size,
      ...(after ? { after } : {}),
    });
    const kept = new URLSearchParams({
      ...(all ? { all: '1' } : {}),
      ...(size === defaultPageSize ? {} : { size: String(size) }),
    });
    const none = after
      ? 'No more conflicts.'
      : all
        ? 'No conflicts are kept.'
        : 'No open conflicts.';
    const count = `${conflicts.length} ${all ? '' : 'open '}conflict${conflicts.length === 1 ? '' : 's'}${after || next ? ' on this page' : ''}`;
    const current = (yes: boolean) => (yes ? html` aria-current="page"` : '');
    const selectable = console.allowActions && conflicts.some((conflict) => !conflict.settlement);
    const nextUrl =
      next && `/conflicts?${new URLSearchParams([...kept, ['after', encodeKey(next)]])}`;
    return page(c, console, {
      title: 'Conflicts',
      section: '/conflicts',
      body: html`<p>Deliveries that claimed a recorded reference with other content: refused with
409 and kept. Settle each once the gateway has said which content is right.</p>
<nav class="pager" aria-label="Which conflicts"><a href="/conflicts"${current(!all)}>Open</a><a href="/conflicts?all=1"${current(all)}>All, settled too</a></nav>
${selectable ? html`<form method="post" action="/conflicts/settle-selected" id="settle-selected">${csrfField(c)}</form>` : ''}
<div class="table-wrap"><table>
<caption class="muted">${conflicts.length === 0 ? none : count}</caption>
<thead><tr>${selectable ? html`<th scope="col" class="select"><span class="visually-hidden">Select</span></th>` : ''}<th scope="col">Reference</th><th scope="col">Conflict</th><th scope="col">Version</th><th scope="col">First received</th><th scope="col">Last received</th><th scope="col">Deliveries</th><th scope="col">Status</th><th scope="col">Differs in</th></tr></thead>
<tbody id="conflicts">${conflicts.map((conflict) => row(conflict, selectable))}</tbody>
</table></div>
${selectable ? settleSelectedForm() : ''}
<nav class="pager" aria-label="Conflict pages">${after ? html`<a href="/conflicts${kept.size > 0 ? `?${kept}` : ''}">First page</a>` : ''}${nextUrl ? html`<a href="${nextUrl}" rel="next">Next page</a>` : ''}</nav>`,
    });
  });

  // Several conflicts, one reason and one decision: each is settleConflict on its own, so one
  // that moved meanwhile is refused and reported while the others are settled.
  app.post('/conflicts/settle-selected', async (c) => {
    if (!console.allowActions) return refuseReadOnly(c);
    const form = await c.req.parseBody({ all: true });
    const field = (name: string) => {
      const value = form[name];
      return typeof value === 'string' ? value : '';
    };
    const selected = selectedValues(form, 'item').flatMap((value) => {
      const parsed = selectedConflict(value);
      return parsed ? [{ value, ...parsed }] : [];
    });
    const [accept, reason] = [field('accept'), field('reason')];
    const problem =
      selected.length === 0
        ? 'Select at least one open conflict to settle.'
        : accept !== 'received' && accept !== 'stored'
          ? 'Choose Accept received or Keep stored.'
          : reason.trim() === '' || reason.length > maxReasonLength
            ? `Give a reason, up to ${maxReasonLength} characters: it is recorded with each decision.`
            : undefined;
    if (problem !== undefined || (accept !== 'received' && accept !== 'stored')) {
      c.status(422);
      return page(c, console, {
        title: 'Settle selected conflicts',
        section: '/conflicts',
        body: html`<p class="notice error" role="alert">${problem} Nothing was written.</p><p><a href="/conflicts">Back to the conflicts</a></p>`,
      });
    }
    const decision =
      accept === 'received' ? 'accepting the received content' : 'keeping the stored content';
    const count = `${selected.length} conflict${selected.length === 1 ? '' : 's'}`;
    if (field('confirmed') !== '1') {
      return page(c, console, {
        title: 'Settle selected conflicts',
        section: '/conflicts',
        body: bulkConfirmation(c, {
          action: '/conflicts/settle-selected',
          question: `Settle ${count}, ${decision}?`,
          button: `Settle ${count}`,
          cancel: '/conflicts',
          items: selected.map((one) => ({
            value: one.value,
            label: `${one.reference} · conflict ${one.fingerprint.slice(0, 12)} · version ${one.version}`,
          })),
          fields: { accept, reason },
        }),
      });
    }
    let actor: string | undefined;
    let noActor = '';
    try {
      actor = await operator();
    } catch (error) {
      noActor = `who you are could not be established: ${message(error)}`;
    }
    const outcomes: BulkOutcome[] = [];
    const settled: string[] = [];
    for (const one of selected) {
      const href = `/conflicts/${encodeURIComponent(one.reference)}#conflict-${one.fingerprint.slice(0, 12)}`;
      const item = `${one.reference} ${one.fingerprint.slice(0, 12)}`;
      if (actor === undefined) {
        outcomes.push({ item, href, ok: false, text: `Not settled: ${noActor}.` });
        continue;
      }
      try {
        const result = await settleConflict(context, {
          reference: one.reference,
          conflict: one.fingerprint,
          expectVersion: one.version,
          decision: { accept, reason, actor, at: new Date().toISOString() },
        });
        settled.push(one.reference);
        outcomes.push({ item, href, ok: true, text: settleOutcomeText(result) });
      } catch (error) {
        // One that fails is reported and left as it was; the rest still go ahead.
        const why = error instanceof SettleRefusedError ? error.message : message(error);
        outcomes.push({ item, href, ok: false, text: `Not settled, nothing was written: ${why}.` });
      }
    }
    // Forwarding follows new items, not changed ones: tell it of these changes.
    if (console.eventFiles && settled.length > 0) await noteChanges(console.eventFiles, settled);
    return page(c, console, {
      title: 'Settle selected conflicts',
      section: '/conflicts',
      body: html`${bulkOutcomes(outcomes)}<p><a href="/conflicts">Back to the open conflicts</a></p>`,
    });
  });

  app.get('/conflicts/:reference', async (c) =>
    conflictPage(c, console, await readReference(context, c.req.param('reference'))),
  );

  app.post('/conflicts/:reference/settle', async (c) => {
    if (!console.allowActions) return refuseReadOnly(c);
    const reference = c.req.param('reference');
    const form = await c.req.parseBody();
    const field = (name: string) => {
      const value = form[name];
      return typeof value === 'string' ? value : '';
    };
    const [accept, fingerprint, reason] = [field('accept'), field('conflict'), field('reason')];
    const version = Number(field('version'));
    if (
      (accept !== 'received' && accept !== 'stored') ||
      fingerprint === '' ||
      !Number.isInteger(version) ||
      version < 1
    ) {
      return c.text('Refused: the settle form is incomplete. Reload the page and try again.', 400);
    }
    let outcome: SettleOutcome;
    try {
      const actor = await operator().catch((error: unknown) => {
        throw new SettleRefusedError(`who you are could not be established: ${message(error)}`, {
          cause: error,
        });
      });
      const result = await settleConflict(context, {
        reference,
        conflict: fingerprint,
        expectVersion: version,
        decision: { accept, reason, actor, at: new Date().toISOString() },
      });
      // Forwarding follows new items, not changed ones: tell it of this change.
      if (console.eventFiles) await noteChanges(console.eventFiles, [reference]);
      outcome = { ok: true, text: settleOutcomeText(result) };
    } catch (error) {
      if (!(error instanceof SettleRefusedError)) throw error;
      // The reason is the operator's to fix (422); anything else is the state moving under
      // them, another operator first most likely (409). Either way nothing was written.
      const aboutReason = reason.trim() === '' || reason.length > maxReasonLength;
      c.status(aboutReason ? 422 : 409);
      outcome = {
        ok: false,
        text: `Not settled, nothing was written: ${error.message}.`,
        fingerprint,
        reason,
      };
    }
    return conflictPage(c, console, await readReference(context, reference), outcome);
  });
}

/** The settle-selected form's fields, after the table: its rows' boxes belong to it by `form`. */
function settleSelectedForm() {
  return html`<fieldset class="bulk" form="settle-selected">
<legend>Settle the selected conflicts</legend>
<label>Reason (recorded with each decision)<textarea name="reason" form="settle-selected" required maxlength="${maxReasonLength}" rows="2"></textarea></label>
<div class="actions"><button type="submit" form="settle-selected" name="accept" value="received">Accept received for selected</button>
<button type="submit" form="settle-selected" name="accept" value="stored">Keep stored for selected</button></div>
</fieldset>`;
}

/** A checkbox's value: `version:fingerprint:reference` (the reference last: it may hold a colon). */
function selectedConflict(value: string) {
  const match = /^(\d+):([0-9a-f]{64}):(.+)$/s.exec(value);
  if (!match) return undefined;
  const [, version, fingerprint, reference] = match as unknown as [string, string, string, string];
  return { version: Number(version), fingerprint, reference };
}

function row(conflict: ConflictView, selectable = false) {
  const link = `/conflicts/${encodeURIComponent(conflict.reference)}#conflict-${conflict.id}`;
  const settlement = conflict.settlement;
  const status = settlement
    ? html`<span class="badge ok">settled</span> ${settlement.resolution} by ${shown(settlement.settledBy)}`
    : html`<span class="badge open">open</span>`;
  const fields = conflict.differences.map((difference) => difference.field).join(', ');
  const box = conflict.settlement
    ? html`<td class="select"></td>`
    : html`<td class="select"><input type="checkbox" name="item" form="settle-selected" value="${conflict.transactionVersion}:${conflict.fingerprint}:${conflict.reference}" aria-label="Select ${conflict.reference} conflict ${conflict.id}"></td>`;
  return html`<tr>${selectable ? box : ''}
<td><a href="${link}">${shown(conflict.reference)}</a></td><td><code>${conflict.id}</code></td>
<td class="num">${conflict.transactionVersion}</td><td>${timeOf(conflict.firstReceivedAt)}</td>
<td>${timeOf(conflict.lastReceivedAt)}</td><td class="num">${conflict.deliveries}</td>
<td>${status}</td><td>${shown(fields || '(nothing now)')}</td></tr>`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
