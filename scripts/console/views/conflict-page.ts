import type { Context } from 'hono';
import { html } from 'hono/html';
import { maxReasonLength } from '../../operations/settle/settle.js';
import { contentFields } from '../../table/content-differences.js';
import type { ConflictView, ReferenceState } from '../../table/reference-state.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { actionsOffNotice } from '../html/actions-off.js';
import { csrfField, page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';

/** What a settle POST came to, shown above the conflicts it was about. */
export interface SettleOutcome {
  readonly ok: boolean;
  readonly text: string;
  /** The conflict the form was for and the reason typed, kept for another try after a refusal. */
  readonly fingerprint?: string;
  readonly reason?: string;
}

/**
 * One reference's conflicts, oldest first, each beside the stored transaction field by field
 * (the differing fields marked, as `query conflicts` lists them), each open one with its settle
 * form when actions are allowed.
 */
export function conflictPage(
  c: Context<ConsoleEnv>,
  console: ConsoleContext,
  state: ReferenceState,
  outcome?: SettleOutcome,
) {
  const { reference, transaction } = state;
  if (!transaction && state.conflicts.length === 0) c.status(404);
  const link = `/transactions/${encodeURIComponent(reference)}`;
  const open = state.conflicts.filter((conflict) => isOpen(state, conflict)).length;
  return page(c, console, {
    title: 'Conflicts of one reference',
    section: '/conflicts',
    body: html`${outcome ? notice(outcome) : ''}
<p>Reference <code>${shown(reference)}</code>${
      transaction
        ? html` · stored version ${state.version} · <a href="${link}">its transaction</a>`
        : html` · <strong>no transaction is recorded with it</strong>`
    } · ${state.conflicts.length} conflict${state.conflicts.length === 1 ? '' : 's'}, ${open} open</p>
${state.conflicts.map((conflict) => section(c, console, state, conflict, outcome))}
<p><a href="/conflicts">All open conflicts</a></p>`,
  });
}

/** Open: not decided, and not the content that is stored now. The same test as settle's. */
function isOpen(state: ReferenceState, conflict: ConflictView): boolean {
  return !conflict.settlement && conflict.fingerprint !== state.transaction?.fingerprint?.S;
}

function notice(outcome: SettleOutcome) {
  return html`<p class="notice ${outcome.ok ? 'ok' : 'error'}" role="${outcome.ok ? 'status' : 'alert'}" id="outcome">${shown(outcome.text)}</p>`;
}

function section(
  c: Context<ConsoleEnv>,
  console: ConsoleContext,
  state: ReferenceState,
  conflict: ConflictView,
  outcome: SettleOutcome | undefined,
) {
  const stored = state.transaction ?? {};
  const received = conflict.item.transaction?.M ?? {};
  const differing = new Set(conflict.differences.map((difference) => difference.field));
  const open = isOpen(state, conflict);
  const heading = `conflict-${conflict.id}`;
  const differs = differing.size === 1 ? '1 field differs' : `${differing.size} fields differ`;
  return html`<section class="conflict" id="${heading}" aria-labelledby="${heading}-title">
<h2 id="${heading}-title">Conflict <code>${conflict.id}</code> · ${open ? 'open' : 'settled'}</h2>
<dl class="fields">
<dt>First received</dt><dd>${shown(conflict.firstReceivedAt)}</dd>
<dt>Last received</dt><dd>${shown(conflict.lastReceivedAt)}</dd>
<dt>Deliveries</dt><dd>${conflict.deliveries}</dd>
${conflict.settlement ? decision(conflict) : ''}
</dl>
<div class="table-wrap"><table class="comparison">
<caption>Stored (version ${state.version}) and received side by side: ${differs}, marked</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Stored</th><th scope="col">Received</th></tr></thead>
<tbody>${contentFields(stored, received).map(
    (row) => html`<tr${differing.has(row.field) ? html` class="differs"` : ''}>
<th scope="row"><code>${shown(row.field)}</code>${differing.has(row.field) ? html` <span class="mark">differs</span>` : ''}</th>
<td>${value(row.stored)}</td><td>${value(row.received)}</td></tr>`,
  )}</tbody>
</table></div>
${open && state.transaction ? settleForm(c, console, state, conflict, outcome) : ''}
</section>`;
}

function decision(conflict: ConflictView) {
  const settlement = conflict.settlement;
  if (!settlement) return '';
  const what = {
    received: 'accepted as a correction',
    stored: 'refused: the stored transaction stands',
    superseded: 'replaced by a correction',
  }[settlement.resolution];
  return html`<dt>Decision</dt><dd>${what}, by ${shown(settlement.settledBy)} at ${shown(settlement.settledAt)} (version ${settlement.version})</dd>
<dt>Reason</dt><dd>${shown(settlement.reason)}</dd>`;
}

function value(text: string | null) {
  if (text === '') return html`<span class="muted">(empty)</span>`;
  return text === null
    ? html`<span class="muted">(absent)</span>`
    : html`<span class="mono">${shown(text)}</span>`;
}

/**
 * The settle form: both decisions share the one required reason. It names the conflict and the
 * version the operator is looking at, so a settle by someone else meanwhile is refused, never
 * overwritten (settleConflict's `conflict` and `expectVersion`).
 */
function settleForm(
  c: Context<ConsoleEnv>,
  console: ConsoleContext,
  state: ReferenceState,
  conflict: ConflictView,
  outcome: SettleOutcome | undefined,
) {
  if (!console.allowActions) return actionsOffNotice('settle this conflict');
  const id = `reason-${conflict.id}`;
  const typed = outcome?.fingerprint === conflict.fingerprint ? (outcome.reason ?? '') : '';
  const action = `/conflicts/${encodeURIComponent(state.reference)}/settle`;
  return html`<h3>Settle it</h3>
<form class="stacked settle" method="post" action="${action}">
${csrfField(c)}
<input type="hidden" name="conflict" value="${conflict.fingerprint}">
<input type="hidden" name="version" value="${state.version}">
<label for="${id}">Reason (required): a ticket, what the gateway said</label>
<textarea id="${id}" name="reason" rows="3" required maxlength="${maxReasonLength}" aria-describedby="${id}-help">${typed}</textarea>
<p class="muted" id="${id}-help"><strong>Accept received</strong>: the received content becomes version ${state.version + 1}, version ${state.version} is kept in the history, and a Transaction Corrected event is published.
<strong>Keep stored</strong>: the transaction stays as it is; the decision is recorded and this content stays refused (409).</p>
<p class="actions"><button type="submit" name="accept" value="received">Accept received</button>
<button type="submit" name="accept" value="stored">Keep stored</button></p>
</form>`;
}
