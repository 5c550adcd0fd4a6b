import type { Hono } from 'hono';
import { html } from 'hono/html';
import { noteChanges } from '../../local/events/change-notes.js';
import { operatorIdentity } from '../../settle/operator-identity.js';
import { maxReasonLength, SettleRefusedError, settleConflict } from '../../settle/settle.js';
import { settleOutcomeText } from '../../settle/settle-outcome.js';
import { type ConflictView, conflictsPage, readReference } from '../../table/reference-state.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { refuseReadOnly } from '../html/actions-off.js';
import { page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
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
    const nextUrl =
      next && `/conflicts?${new URLSearchParams([...kept, ['after', encodeKey(next)]])}`;
    return page(c, console, {
      title: 'Conflicts',
      section: '/conflicts',
      body: html`<p>Deliveries that claimed a recorded reference with other content: refused with
409 and kept. Settle each once the gateway has said which content is right.</p>
<nav class="pager" aria-label="Which conflicts"><a href="/conflicts"${current(!all)}>Open</a><a href="/conflicts?all=1"${current(all)}>All, settled too</a></nav>
<div class="table-wrap"><table>
<caption class="muted">${conflicts.length === 0 ? none : count}</caption>
<thead><tr><th scope="col">Reference</th><th scope="col">Conflict</th><th scope="col">Version</th><th scope="col">First received</th><th scope="col">Last received</th><th scope="col">Deliveries</th><th scope="col">Status</th><th scope="col">Differs in</th></tr></thead>
<tbody id="conflicts">${conflicts.map(row)}</tbody>
</table></div>
<nav class="pager" aria-label="Conflict pages">${after ? html`<a href="/conflicts${kept.size > 0 ? `?${kept}` : ''}">First page</a>` : ''}${nextUrl ? html`<a href="${nextUrl}" rel="next">Next page</a>` : ''}</nav>`,
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

function row(conflict: ConflictView) {
  const link = `/conflicts/${encodeURIComponent(conflict.reference)}#conflict-${conflict.id}`;
  const settlement = conflict.settlement;
  const status = settlement
    ? html`settled ${settlement.resolution} by ${shown(settlement.settledBy)}`
    : 'open';
  const fields = conflict.differences.map((difference) => difference.field).join(', ');
  return html`<tr>
<td><a href="${link}">${shown(conflict.reference)}</a></td><td><code>${conflict.id}</code></td>
<td class="num">${conflict.transactionVersion}</td><td>${shown(conflict.firstReceivedAt)}</td>
<td>${shown(conflict.lastReceivedAt)}</td><td class="num">${conflict.deliveries}</td>
<td>${status}</td><td>${shown(fields || '(nothing now)')}</td></tr>`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
