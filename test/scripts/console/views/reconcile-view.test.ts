import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxReportBytes } from '../../../../scripts/console/views/reconcile-view.js';
import { sharedChromium } from '../../../support/console-browser.js';
import { atPhoneWidth, pageScrollWidth, phoneWidth } from '../../../support/console-pages.js';
import { readOnly, suiteConsole } from '../../../support/console-suite.js';
import { forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';

const browser = sharedChromium();

const today = new Date().toISOString().slice(0, 10);

/** Picks a report file by its label and submits the form, waiting for the result section. */
async function upload(page: Page, name: string, content: string, mimeType = 'text/csv') {
  await page.getByLabel('Since (UTC, inclusive; empty: yesterday)').fill(today);
  await page
    .getByLabel(/^Gateway report/)
    .setInputFiles({ name, mimeType, buffer: Buffer.from(content) });
  const answered = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === '/reconcile' && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Reconcile' }).click();
  return answered;
}

/** The counts table, by its row headers. */
async function counts(page: Page): Promise<Record<string, string>> {
  const rows = page.locator('table.counts tr');
  await rows.first().waitFor();
  const entries = await rows.evaluateAll((trs) =>
    trs.map((tr) => [
      tr.querySelector('th')?.textContent ?? '',
      tr.querySelector('td')?.textContent ?? '',
    ]),
  );
  return Object.fromEntries(entries);
}

/** The cells of the table under the heading that starts with `title`. */
async function rowsUnder(page: Page, title: string): Promise<string[][]> {
  const heading = page.getByRole('heading', { name: new RegExp(`^${title}`) });
  const id = await heading.getAttribute('id');
  return page
    .locator(`table[aria-labelledby="${id}"] tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
}

forEachEngine((engine) => {
  describe('the reconcile view (read-only console)', () => {
    const console = suiteConsole(engine, readOnly);
    const agreeing = transaction({ amount: 1000 });
    const mismatched = transaction({ amount: 2000 });
    const unexpected = transaction({ amount: 3000 });
    // Never delivered; its reference starts like a spreadsheet formula.
    const missing = `=HYPERLINK("http://example.test","${Date.now()}")`;

    beforeAll(async () => {
      for (const fields of [agreeing, mismatched, unexpected]) {
        expect(await console.deliver(fields)).toBe(204);
      }
    });

    const reportRows = [
      {
        reference: agreeing.reference,
        amount: '1000.0',
        currency: 'TRY',
        type: 'Deposit',
        status: 'Confirm',
      },
      {
        reference: mismatched.reference,
        amount: '2500',
        currency: 'TRY',
        type: 'Deposit',
        status: 'Confirm',
      },
      { reference: missing, amount: '4000', currency: 'TRY', type: 'Withdrawal', status: 'Reject' },
    ];

    /** `header`: 1 for CSV, whose header is line 1; 0 for JSON Lines. */
    async function checkResult(page: Page, fileName: string, header: number) {
      await expect
        .poll(() => page.getByRole('heading', { level: 2 }).textContent())
        .toBe(`${fileName}: 3 differences`);
      expect(await counts(page)).toMatchObject({
        Missing: '1',
        Unexpected: '1',
        Mismatched: '1',
        'Open conflicts': '0',
        'Settled conflicts': '0',
        Agreeing: '1',
        'Report rows': '3',
        'Recorded in the window': '3',
      });
      expect(await rowsUnder(page, 'Missing')).toEqual([
        [String(3 + header), missing, '4000', 'TRY', 'Withdrawal', 'Reject'],
      ]);
      const [unexpectedRow] = await rowsUnder(page, 'Unexpected');
      expect(unexpectedRow?.[0]).toBe(unexpected.reference);
      expect(unexpectedRow?.slice(2)).toEqual(['3000', 'TRY', 'Deposit', 'Confirm']);
      expect(await rowsUnder(page, 'Mismatch')).toEqual([
        [String(2 + header), String(mismatched.reference), 'amount', '2500', '2000', ''],
      ]);
    }

    it('reconciles an uploaded CSV report: counts and rows of each kind', async () => {
      const page = await console.signedIn(browser, '/reconcile');
      const csv = [
        'reference,amount,currency,type,status',
        ...reportRows.map((r) =>
          [r.reference, r.amount, r.currency, r.type, r.status]
            .map((cell) => `"${String(cell).replaceAll('"', '""')}"`)
            .join(','),
        ),
      ].join('\n');
      const answer = await upload(page, 'report.csv', csv);
      expect(answer.status()).toBe(200);
      await checkResult(page, 'report.csv', 1);

      // The download is the CLI's CSV, every difference, formula cells neutralised.
      const download = await page.evaluate(async () => {
        const response = await fetch('/reconcile/differences.csv');
        return {
          status: response.status,
          type: response.headers.get('content-type'),
          disposition: response.headers.get('content-disposition'),
          text: await response.text(),
        };
      });
      expect(download.status).toBe(200);
      expect(download.type).toMatch(/^text\/csv/);
      expect(download.disposition).toBe('attachment; filename="reconcile-differences.csv"');
      const rows = parse(download.text, { columns: true }) as Record<string, string>[];
      const pick = (kind: string) => rows.filter((row) => row.kind === kind);
      expect(pick('missing')).toEqual([
        expect.objectContaining({
          line: '4',
          reference: `'${missing}`,
          amount: '4000',
          type: 'Withdrawal',
        }),
      ]);
      expect(pick('mismatch')).toEqual([
        expect.objectContaining({
          line: '3',
          reference: String(mismatched.reference),
          field: 'amount',
          report: '2500',
          recorded: '2000',
        }),
      ]);
      expect(pick('unexpected')).toEqual([
        expect.objectContaining({ reference: String(unexpected.reference), amount: '3000' }),
      ]);
      expect(rows).toHaveLength(3);
      // Exactly the CLI's columns, in its order.
      expect(download.text.split('\n')[0]).toBe(
        'kind,line,reference,receivedAt,field,report,recorded,amount,currency,type,status,requestId,conflict,state,settledBy,settledAt,reason,note',
      );
      await page.close();
    });

    it('reconciles a JSON Lines report the same way, and keeps the result for a reload', async () => {
      const page = await console.signedIn(browser, '/reconcile');
      const jsonl = reportRows
        .map((r) => JSON.stringify(r).replace(/"amount":"([^"]+)"/, '"amount":$1'))
        .join('\n');
      // No telling extension: the format comes from the content.
      const answer = await upload(page, 'report.txt', jsonl, 'text/plain');
      expect(answer.status()).toBe(200);
      await checkResult(page, 'report.txt', 0);
      await page.reload();
      await checkResult(page, 'report.txt', 0);
      // Readable on a phone: wide tables scroll inside their own box, not the page.
      await atPhoneWidth(page);
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(phoneWidth);
      await page.close();
    });

    it('works as a plain form too (no htmx): the token rides in the action', async () => {
      const page = await console.signedIn(browser, '/reconcile');
      const csv = `reference,amount,currency,type,status\n${agreeing.reference},1000,TRY,Deposit,Confirm\n`;
      await page.getByLabel('Since (UTC, inclusive; empty: yesterday)').fill(today);
      await page
        .getByLabel(/^Gateway report/)
        .setInputFiles({ name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      // A native submission: a full page load, no script involved.
      const loaded = page.waitForNavigation();
      await page
        .locator('#reconcile-form')
        .evaluate((form) => (form as unknown as { submit(): void }).submit());
      const answer = await loaded;
      expect(answer?.status()).toBe(200);
      await expect
        .poll(() => page.getByRole('heading', { level: 2 }).textContent())
        .toBe('one.csv: 2 differences');
      expect(await counts(page)).toMatchObject({ Agreeing: '1', Unexpected: '2', Missing: '0' });
      await page.close();
    });

    it('refuses a report it cannot read, naming the line and the problem', async () => {
      const page = await console.signedIn(browser, '/reconcile');
      const answer = await upload(
        page,
        'bad.csv',
        'reference,amount,currency,type\nr-1,10,TRY,Deposit\n',
      );
      expect(answer.status()).toBe(400);
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe('bad.csv, line 1: the header names no status column');
      expect(await page.locator('table.counts').count()).toBe(0);
      // The failed upload replaced the session's result: nothing to download.
      const status = await page.evaluate(
        async () => (await fetch('/reconcile/differences.csv')).status,
      );
      expect(status).toBe(404);
      await page.close();
    });

    it('refuses a report over the size limit with 413 before reading it', async () => {
      const page = await console.signedIn(browser, '/reconcile');
      const token = await page.locator('meta[name="csrf-token"]').getAttribute('content');
      const answer = await page.evaluate(
        async ([bytes, token]) => {
          const form = new FormData();
          form.append('report', new File([new Uint8Array(bytes)], 'huge.csv'));
          const response = await fetch('/reconcile', {
            method: 'POST',
            body: form,
            headers: { 'x-csrf-token': token },
          });
          return { status: response.status, text: await response.text() };
        },
        [maxReportBytes + 1, token ?? ''] as const,
      );
      expect(answer.status).toBe(413);
      expect(answer.text).toContain(
        'The report is larger than 64 MiB: use npm run reconcile for it.',
      );
      await page.close();
    });

    it('refuses an upload without the CSRF token with 403', async () => {
      const page = await console.signedIn(browser, '/reconcile');
      const status = await page.evaluate(async () => {
        const form = new FormData();
        form.append('report', new File(['reference,amount,currency,type,status\n'], 'r.csv'));
        return (await fetch('/reconcile', { method: 'POST', body: form })).status;
      });
      expect(status).toBe(403);
      await page.close();
    });
  });
});
