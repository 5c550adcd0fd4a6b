import { isUtf8 } from 'node:buffer';
import type { Context } from 'hono';
import { html } from 'hono/html';
import {
  isResolved,
  maxResolutionReasonLength,
  type RefusalResolution,
} from '../../operations/refusals/refusal-resolution.js';
import { answerText, resubmitRefusal } from '../../operations/refusals/resubmit.js';
import type { KeptRefusal } from '../../table/refusal-item.js';
import type { ConsoleContext, ConsoleEnv, ConsoleReceiver } from '../console-context.js';
import { actionsOffNotice } from '../html/actions-off.js';
import { csrfField, page } from '../html/layout.js';
import { shown, shownLines } from '../html/shown-text.js';

/** What a resubmit came to: the receiver's answer in words, or why there was none. */
export interface ResubmitOutcome {
  readonly ok: boolean;
  readonly text: string;
  /** The answer's status, when one came. */
  readonly status?: number;
  /** `x-callback-outcome`, when the receiver sent it. */
  readonly outcome?: string;
}

/**
 * Sends the kept body again with `resubmitRefusal`, the function `npm run resubmit` runs, and
 * says what the receiver made of it in the CLI's words (`was 403 hash-missing; now 204
 * recorded`). Rejects when no answer comes (the caller explains it).
 */
export async function resubmit(
  refusal: KeptRefusal,
  receiver: ConsoleReceiver,
  contentType: string,
): Promise<ResubmitOutcome> {
  if (refusal.bodyKept === 'part') {
    return { ok: false, text: `Not sent: ${partKept(refusal)}.` };
  }
  const answer = await resubmitRefusal(refusal, {
    url: receiver.url,
    apiKey: receiver.apiKey,
    timeoutMs: receiver.timeoutMs ?? 10_000,
    ...(contentType !== '' ? { contentType } : {}),
  });
  const ok = answer.status >= 200 && answer.status <= 299;
  return {
    ok,
    status: answer.status,
    ...(answer.outcome !== undefined ? { outcome: answer.outcome } : {}),
    text: `Resubmitted: was ${refusal.status} ${refusal.problem}; now ${answerText(answer)}.`,
  };
}

function partKept(refusal: KeptRefusal): string {
  return `only the first ${refusal.body.length} of ${refusal.bodyBytes} bytes of this body were kept, so it cannot be sent again as it was`;
}

/** One kept refusal: why, when, how often, its headers and body (escaped), and resubmit. */
export function refusalPage(
  c: Context<ConsoleEnv>,
  console: ConsoleContext,
  refusal: KeptRefusal,
  outcome?: ResubmitOutcome,
  resolution?: RefusalResolution,
) {
  const reference = refusal.reference;
  return page(c, console, {
    title: 'One refusal',
    section: '/refusals',
    body: html`${outcome ? answered(outcome, reference) : ''}
<dl class="fields">
<dt>State</dt><dd>${stateText(resolution, refusal.lastReceivedAt)}</dd>
<dt>Status</dt><dd>${refusal.status} <code>${shown(refusal.problem)}</code></dd>
${refusal.fieldErrors?.length ? html`<dt>Fields</dt><dd><ul class="plain">${refusal.fieldErrors.map((error) => html`<li><code>${shown(error.field)}</code>: ${shown(error.message)}</li>`)}</ul></dd>` : ''}
<dt>Reference</dt><dd>${reference === undefined ? html`<span class="muted">(none in the body)</span>` : html`<code>${shown(reference)}</code>`}</dd>
${refusal.id === undefined ? '' : html`<dt>Transaction id</dt><dd><code>${shown(refusal.id)}</code></dd>`}
<dt>First received</dt><dd>${shown(refusal.firstReceivedAt)}</dd>
<dt>Last received</dt><dd>${shown(refusal.lastReceivedAt)}</dd>
<dt>Times</dt><dd>${refusal.deliveries}</dd>
<dt>Key id</dt><dd><code>${shown(refusal.keyId)}</code></dd>
<dt>Request id (last)</dt><dd><code>${shown(refusal.requestId)}</code></dd>
<dt>Source IP</dt><dd>${shown(refusal.sourceIp)}</dd>
<dt>Kept until</dt><dd>${shown(refusal.expiresAt)} (about; DynamoDB's TTL deletes it after)</dd>
<dt>Digest</dt><dd><code class="digest">${shown(refusal.digest)}</code></dd>
</dl>
<h2 id="resubmit">Resubmit</h2>
${resubmitForm(c, console, refusal)}
${console.allowActions ? html`<h2 id="resolve">Mark resolved</h2>${resolveForm(c, refusal, resolution)}` : ''}
<h2>Headers</h2>
${headers(refusal)}
<h2>Body</h2>
${body(refusal)}
<p><a href="/refusals">All kept refusals</a></p>`,
  });
}

function answered(outcome: ResubmitOutcome, reference: string | undefined) {
  const recorded = outcome.ok && reference !== undefined;
  const link = recorded
    ? html` <a href="/transactions/${encodeURIComponent(reference)}">See the transaction</a>`
    : '';
  return html`<p class="notice ${outcome.ok ? 'ok' : 'error'}" role="${outcome.ok ? 'status' : 'alert'}" id="outcome">${shown(outcome.text)}${link}</p>`;
}

function resubmitForm(c: Context<ConsoleEnv>, console: ConsoleContext, refusal: KeptRefusal) {
  if (!console.allowActions) return actionsOffNotice('resubmit this refusal');
  if (!console.receiver) {
    return html`<p class="notice" role="note">Resubmit needs a receiver to send to, and this console
was given none. ${
      console.mode === 'local'
        ? 'Local mode gives its own when npm start serves the console.'
        : html`Start it with the receiver's callback URL and an API key, as <code>npm run resubmit</code> takes them (<code>--url</code>, <code>--key-file</code> or <code>CALLBACK_API_KEY</code>), or resubmit from a terminal: <code>npm run resubmit -- ${refusal.digest.slice(0, 16)} --url &lt;callback URL&gt; --key-file &lt;path&gt;</code>.`
    }</p>`;
  }
  if (refusal.bodyKept === 'part') {
    return html`<p class="notice" role="note">Resubmit is not possible: ${partKept(refusal)}.</p>`;
  }
  const action = `/refusals/${encodeURIComponent(refusal.digest)}/resubmit`;
  return html`<form class="stacked resubmit" method="post" action="${action}">
${csrfField(c)}
<p>Sends the kept body again, byte for byte, to <code>${shown(console.receiver.url)}</code>, as
<code>npm run resubmit</code> does, and shows what the receiver answers now.</p>
<label>Content-Type (empty: as kept)<input name="contentType" placeholder="${contentTypeOf(refusal) ?? 'application/json'}"></label>
<p class="actions"><button type="submit">Resubmit</button></p>
</form>`;
}

/** Open, or who dealt with it, when and why (and whether it came again since). */
function stateText(resolution: RefusalResolution | undefined, lastReceivedAt: string) {
  if (resolution === undefined) return html`<span class="badge open">open</span>`;
  const what = html`${resolution.how === 'resubmitted' ? 'resubmitted' : 'marked resolved'} by ${shown(resolution.by)} at <time datetime="${resolution.at}">${shown(resolution.at)}</time>: ${shown(resolution.why)}`;
  return isResolved(resolution, lastReceivedAt)
    ? html`<span class="badge ok">resolved</span> ${what}`
    : html`<span class="badge open">open again</span> delivered again since it was ${what}`;
}

/** Records that it was dealt with (a ticket, what the gateway said), with who and when. */
function resolveForm(
  c: Context<ConsoleEnv>,
  refusal: KeptRefusal,
  resolution: RefusalResolution | undefined,
) {
  if (isResolved(resolution, refusal.lastReceivedAt)) {
    return html`<p class="muted">Already resolved; marking it again replaces the reason.</p>${resolveFields(c, refusal)}`;
  }
  return resolveFields(c, refusal);
}

function resolveFields(c: Context<ConsoleEnv>, refusal: KeptRefusal) {
  const action = `/refusals/${encodeURIComponent(refusal.digest)}/resolve`;
  return html`<form class="stacked" method="post" action="${action}">
${csrfField(c)}
<label>Why it is dealt with<textarea name="reason" required maxlength="${maxResolutionReasonLength}" rows="2"></textarea></label>
<p class="actions"><button type="submit">Mark resolved</button></p>
</form>`;
}

function contentTypeOf(refusal: KeptRefusal): string | undefined {
  return Object.entries(refusal.headers).find(
    ([name]) => name.toLowerCase() === 'content-type',
  )?.[1];
}

function headers(refusal: KeptRefusal) {
  const entries = Object.entries(refusal.headers);
  const dropped =
    refusal.headersKept === 'part'
      ? html`<p class="muted">${refusal.headersDropped} more header${refusal.headersDropped === 1 ? ' was' : 's were'} left out (size caps).</p>`
      : '';
  return html`<p class="muted">As received, less the API key and any other credential.</p>
<div class="table-wrap"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead>
<tbody>${entries.map(([name, value]) => html`<tr><th scope="row"><code>${shown(name)}</code></th><td class="mono">${shown(value)}</td></tr>`)}</tbody>
</table></div>${dropped}`;
}

function body(refusal: KeptRefusal) {
  const kept =
    refusal.bodyKept === 'part'
      ? `the first ${refusal.body.length} of ${refusal.bodyBytes} bytes`
      : `${refusal.bodyBytes} bytes`;
  if (isUtf8(refusal.body)) {
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(refusal.body);
    // The BOM kept: shown() marks it, so a body that starts with one says so.
    return html`<p class="muted">${kept}, as received (UTF-8).</p><pre class="body">${shownLines(text)}</pre>`;
  }
  const base64 = Buffer.from(refusal.body).toString('base64');
  return html`<p class="muted">${kept}; not UTF-8, so shown as base64.</p><pre class="body">${base64}</pre>`;
}
