import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import { html } from 'hono/html';
import { UsageError } from '../../cli/cli-errors.js';
import { type ReportFormat, ReportInputError } from '../../operations/reconcile/gateway-report.js';
import { agrees, differenceCount } from '../../operations/reconcile/reconcile.js';
import { detectFormat, reconcileWindow } from '../../operations/reconcile/reconcile-input.js';
import {
  findingKinds,
  findingSections,
  rowsPerKind,
  summaryText,
} from '../../operations/reconcile/reconcile-output.js';
import { ownAsset } from '../assets.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { csrfAction, page } from '../html/layout.js';
import { shown } from '../html/shown-text.js';
import {
  type FileUpload,
  MultipartError,
  receiveFileUpload,
  UploadTooLargeError,
} from '../upload/file-upload.js';

import { type ReconcileResult, ReconcileResults } from './reconcile-results.js';

/**
 * The largest report the console takes. The upload streams to a temp file, so the bound is on
 * disk and on the time a browser waits for the answer, not on memory: 64 MiB is several
 * hundred thousand rows. The CLI reads reports of any size.
 */
export const maxReportBytes = 64 * 1024 * 1024;
const maxReportText = '64 MiB';

ownAsset('reconcile.js');

/**
 * Reconcile: upload the gateway's report, see what differs from the table (the same reconcile
 * as `npm run reconcile`) and download every difference as the CLI's CSV. Read-only on the
 * table, so it works without `--allow-actions`.
 */
export function reconcileView(app: Hono<ConsoleEnv>, console: ConsoleContext): void {
  const context = { client: console.tables.client, tableName: console.tables.tableName };
  const results = new ReconcileResults();
  const show = (c: Context<ConsoleEnv>, outcome: Outcome, status: 200 | 400 | 413 | 500 = 200) => {
    const body = html`${uploadForm(c, outcome.form)}
<div class="live" aria-live="polite">${resultSection(outcome)}</div>`;
    c.status(status);
    return page(c, console, {
      title: 'Reconcile',
      section: '/reconcile',
      body,
      scripts: ['reconcile.js'],
    });
  };

  app.get('/reconcile', (c) => {
    const result = results.get(c.get('session'));
    return show(c, { form: {}, ...(result && { result }) });
  });

  app.post('/reconcile', async (c) => {
    const session = c.get('session');
    // A new upload replaces the session's result, even one that fails.
    await results.forget(session);
    let upload: FileUpload;
    try {
      upload = await receiveFileUpload(c.req.raw, {
        fileField: 'report',
        path: results.tempPath('upload'),
        maxBytes: maxReportBytes,
      });
    } catch (error) {
      if (error instanceof UploadTooLargeError) {
        const error = `The report is larger than ${maxReportText}: use npm run reconcile for it.`;
        return show(c, { form: {}, error }, 413);
      }
      if (!(error instanceof MultipartError)) throw error;
      return show(c, { form: {}, error: `Cannot read the upload: ${error.message}.` }, 400);
    }
    const form = formOf(upload.fields);
    const file = upload.file;
    if (file === undefined) {
      return show(c, { form, error: 'Choose a report file (CSV or JSON Lines) to upload.' }, 400);
    }
    try {
      const window = reconcileWindow(form.since, form.until);
      const format = form.format ?? (await detectFormat(file.path, file.name));
      const report = createReadStream(file.path);
      const result = await results.run(session, context, {
        fileName: file.name,
        report,
        format,
        window,
      });
      return show(c, { form, result });
    } catch (error) {
      if (!(error instanceof UsageError)) {
        // The table could not be read (throttled, credentials expired): said on the page,
        // since htmx would otherwise leave the form without an answer.
        const message = error instanceof Error ? error.message : String(error);
        return show(c, { form, error: `The reconcile failed: ${message}` }, 500);
      }
      const what = error instanceof ReportInputError ? `${file.name}, ` : '';
      return show(c, { form, error: `${what}${optionNames(error.message)}` }, 400);
    } finally {
      await rm(file.path, { force: true });
    }
  });

  app.get('/reconcile/differences.csv', async (c) => {
    const file = await results.openDifferences(c.get('session'));
    if (file === undefined) {
      return c.text('No reconcile result in this session: upload a report first.', 404);
    }
    c.header('content-type', 'text/csv; charset=utf-8');
    c.header('content-disposition', 'attachment; filename="reconcile-differences.csv"');
    return c.body(Readable.toWeb(file.createReadStream()) as ReadableStream);
  });
}

interface FormValues {
  readonly since?: string;
  readonly until?: string;
  readonly format?: ReportFormat;
}

interface Outcome {
  readonly form: FormValues;
  readonly result?: ReconcileResult;
  readonly error?: string;
}

function formOf(fields: ReadonlyMap<string, string>): FormValues {
  const text = (name: string) => {
    const value = fields.get(name)?.trim();
    return value ? value : undefined;
  };
  const format = text('format');
  return {
    ...(text('since') && { since: text('since') }),
    ...(text('until') && { until: text('until') }),
    ...((format === 'csv' || format === 'jsonl') && { format }),
  };
}

/** The window's errors name the CLI's options; the page's fields are labelled otherwise. */
function optionNames(message: string): string {
  return message.replaceAll('--since', 'Since').replaceAll('--until', 'Until');
}

function uploadForm(c: Context<ConsoleEnv>, form: FormValues) {
  const option = (value: string, label: string) =>
    html`<option value="${value}"${(form.format ?? '') === value ? html` selected` : ''}>${label}</option>`;
  return html`<p>Compare the gateway's report of completed transactions with what was recorded,
by reference: the same comparison as <code>npm run reconcile</code>. Nothing in the table changes.</p>
<form id="reconcile-form" class="stacked" method="post" action="${csrfAction(c, '/reconcile')}" enctype="multipart/form-data"
 hx-post="${csrfAction(c, '/reconcile')}" hx-encoding="multipart/form-data" hx-select="#reconcile-result" hx-target="#reconcile-result" hx-swap="outerHTML">
<label>Gateway report (CSV with a header, or JSON Lines; at most ${maxReportText})
<input type="file" name="report" accept=".csv,.jsonl,.ndjson,.json,text/csv" required></label>
<label>Report format<select name="format">
${option('', 'By file name, else by content')}${option('csv', 'CSV')}${option('jsonl', 'JSON Lines')}
</select></label>
<label>Since (UTC, inclusive; empty: yesterday)<input name="since" value="${form.since ?? ''}" placeholder="2026-11-24"></label>
<label>Until (UTC, exclusive; empty: now, or today 00:00 with no Since)<input name="until" value="${form.until ?? ''}" placeholder="2026-11-25"></label>
<p><button type="submit">Reconcile</button></p>
</form>`;
}

function resultSection({ result, error }: Outcome) {
  if (error !== undefined) {
    return html`<section id="reconcile-result"><p class="notice error" role="alert">${shown(error)}</p></section>`;
  }
  if (result === undefined) return html`<section id="reconcile-result"></section>`;
  const { summary, window, shown: kinds } = result;
  const differences = differenceCount(summary);
  const count = (label: string, value: number) =>
    html`<tr><th scope="row">${label}</th><td class="num">${value}</td></tr>`;
  return html`<section id="reconcile-result" aria-labelledby="reconcile-title">
<h2 id="reconcile-title">${shown(result.fileName)}: ${agrees(summary) ? 'the report and the table agree' : `${differences} differences`}</h2>
<p class="notice ${agrees(summary) ? 'ok' : 'error'}">Window ${window.since} to ${window.lastIncluded}. ${summaryText(summary)}</p>
<div class="table-wrap"><table class="counts">
<caption class="muted">Counts</caption>
<tbody>${count('Missing', summary.missing)}${count('Unexpected', summary.unexpected)}${count('Mismatched', summary.mismatch)}${count('Open conflicts', summary.openConflicts)}${count('Settled conflicts', summary.settledConflicts)}${count('Agreeing', summary.agreeing)}${count('Report rows', summary.reportRows)}${count('Recorded in the window', summary.recordedInWindow)}</tbody>
</table></div>
<p><a href="/reconcile/differences.csv" download>Download differences (CSV)</a></p>
${findingKinds.map((kind) => {
  const found = kinds.get(kind);
  if (found === undefined) return '';
  const [title, head] = findingSections[kind];
  const more =
    found.count > rowsPerKind
      ? html`<p class="muted">The first ${rowsPerKind} of ${found.count}; the CSV holds them all.</p>`
      : '';
  return html`<h3 id="kind-${kind}">${title} (${found.count})</h3>
<div class="table-wrap"><table aria-labelledby="kind-${kind}">
<thead><tr>${head.map((name) => html`<th scope="col">${name}</th>`)}</tr></thead>
<tbody>${found.rows.map((row) => html`<tr>${row.map((cell) => html`<td>${shown(cell)}</td>`)}</tr>`)}</tbody>
</table></div>${more}`;
})}
</section>`;
}
