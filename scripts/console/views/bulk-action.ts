import type { Context } from 'hono';
import { html } from 'hono/html';
import type { ConsoleEnv } from '../console-context.js';
import { csrfField } from '../html/layout.js';
import { shown } from '../html/shown-text.js';

/** One selected item's result: what it is, where to look at it, and what came of it. */
export interface BulkOutcome {
  readonly item: string;
  readonly href: string;
  readonly ok: boolean;
  readonly text: string;
}

/** The values of a form field sent once per checked box (none, one or many). */
export function selectedValues(form: Record<string, unknown>, name: string): string[] {
  const value = form[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return [...new Set(values.filter((one): one is string => typeof one === 'string' && one !== ''))];
}

/**
 * The step before a bulk action writes anything: what is about to happen, to how many, and the
 * same fields posted again with `confirmed=1`. No script: the page itself is the confirmation,
 * so it works with the keyboard, a screen reader and the CSP alike.
 */
export function bulkConfirmation(
  c: Context<ConsoleEnv>,
  parts: {
    readonly action: string;
    readonly question: string;
    readonly button: string;
    readonly cancel: string;
    readonly items: readonly { readonly value: string; readonly label: string }[];
    readonly fields: Readonly<Record<string, string>>;
  },
) {
  return html`<section class="confirm" aria-labelledby="confirm-title">
<h2 id="confirm-title">${parts.question}</h2>
<ul class="selected">${parts.items.map((item) => html`<li>${shown(item.label)}</li>`)}</ul>
<form method="post" action="${parts.action}">
${csrfField(c)}
${parts.items.map((item) => html`<input type="hidden" name="item" value="${item.value}">`)}
${Object.entries(parts.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<input type="hidden" name="confirmed" value="1">
<button type="submit">${parts.button}</button> <a href="${parts.cancel}">Cancel</a>
</form>
</section>`;
}

/** Each item's outcome, the ones that failed as plainly as the ones that worked. */
export function bulkOutcomes(outcomes: readonly BulkOutcome[]) {
  const done = outcomes.filter((outcome) => outcome.ok).length;
  const failed = outcomes.length - done;
  return html`<section class="outcomes" aria-labelledby="outcomes-title">
<h2 id="outcomes-title">${done} done, ${failed} not done</h2>
<p role="status">${done} of ${outcomes.length} done${failed > 0 ? `; ${failed} failed and were left as they were` : ''}.</p>
<div class="table-wrap"><table>
<thead><tr><th scope="col">Item</th><th scope="col">Outcome</th><th scope="col">Details</th></tr></thead>
<tbody id="outcomes">${outcomes.map(
    (outcome) => html`<tr><td><a href="${outcome.href}">${shown(outcome.item)}</a></td>
<td><span class="badge ${outcome.ok ? 'ok' : 'bad'}">${outcome.ok ? 'done' : 'failed'}</span></td>
<td>${shown(outcome.text)}</td></tr>`,
  )}</tbody>
</table></div>
</section>`;
}
