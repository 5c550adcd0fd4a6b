import { describe, expect, it } from 'vitest';
import { rowsPerKind } from '../../../../scripts/operations/reconcile/reconcile-output.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { type Engine, forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { type ConsoleRoutes, consoleRoutes } from '../support/console-routes.js';

/**
 * The Reconcile view's upload, asked of the routes in-process: uploads it cannot read, a report
 * with more differences than the page lists, a second upload replacing the first, and a table it
 * cannot read. reconcile-view.test.ts uploads through Chromium.
 */

/** POSTs the form as a browser's multipart upload; `report` absent: no file chosen. */
function upload(
  routes: ConsoleRoutes,
  fields: Record<string, string>,
  report?: { name: string; content: string },
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (report) form.set('report', new Blob([report.content]), report.name);
  return routes.send('/reconcile', { method: 'POST', body: form });
}

const header = 'reference,amount,currency,type,status';

/** The `<h2>` of the result: the file's name and what came of it. */
const verdict = (page: string) => /<h2 id="reconcile-title">([^<]*)<\/h2>/.exec(page)?.[1];

forEachEngine((engine: Engine) => {
  describe('the reconcile view, route by route', () => {
    const console = suiteConsole(engine);

    it('answers 400 to a form that is not an upload, or has no file, keeping what was typed', async () => {
      const routes = consoleRoutes(console);
      const notMultipart = await routes.post('/reconcile', { since: '2026-11-01' });
      expect(notMultipart.status).toBe(400);
      expect(notMultipart.text).toMatch(/role="alert">Cannot read the upload: [^<]+\.</);

      const noFile = await upload(routes, { since: '2026-11-01', until: '2026-11-02' });
      expect(noFile.status).toBe(400);
      expect(noFile.text).toContain('Choose a report file (CSV or JSON Lines) to upload.');
      expect(noFile.text).toContain('value="2026-11-01"');
      expect(noFile.text).toContain('value="2026-11-02"');
    });

    it('names the form’s fields, not the CLI’s options, when the window is wrong', async () => {
      const answer = await upload(
        consoleRoutes(console),
        { since: 'last-week' },
        { name: 'report.csv', content: `${header}\n` },
      );
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/role="alert">[^<]*Since/);
      expect(answer.text).not.toMatch(/role="alert">[^<]*--since/);
    });

    it(`lists the first ${rowsPerKind} differences of a kind, and the CSV holds them all`, async () => {
      const routes = consoleRoutes(console);
      const missing = Array.from({ length: rowsPerKind + 1 }, (_, i) => `ref-absent-${i}`);
      const rows = missing.map((reference) => `${reference},1000,TRY,Deposit,Confirm`);
      const answer = await upload(
        routes,
        { since: '2001-01-01', until: '2001-01-02' },
        { name: 'many.csv', content: [header, ...rows].join('\n') },
      );
      expect(answer.status).toBe(200);
      expect(verdict(answer.text)).toBe(`many.csv: ${rowsPerKind + 1} differences`);
      expect(answer.text).toContain(
        `The first ${rowsPerKind} of ${rowsPerKind + 1}; the CSV holds them all.`,
      );
      const csv = (await routes.get('/reconcile/differences.csv')).text;
      for (const reference of missing) expect(csv).toContain(reference);
    });

    it('replaces the result with the next upload: the page and the CSV are the new one’s', async () => {
      const routes = consoleRoutes(console);
      await upload(
        routes,
        { since: '2001-01-01', until: '2001-01-02' },
        { name: 'first.csv', content: `${header}\nref-only-in-first,1,TRY,Deposit,Confirm\n` },
      );
      expect((await routes.get('/reconcile/differences.csv')).text).toContain('ref-only-in-first');

      // JSON Lines, named so only the format field says what it is; nothing in that window.
      const second = await upload(
        routes,
        { since: '2001-01-01', until: '2001-01-02', format: 'jsonl' },
        { name: 'second.txt', content: '' },
      );
      expect(second.status).toBe(200);
      expect(verdict(second.text)).toBe('second.txt: the report and the table agree');
      expect(verdict((await routes.get('/reconcile')).text)).toBe(
        'second.txt: the report and the table agree',
      );
      expect((await routes.get('/reconcile/differences.csv')).text).not.toContain(
        'ref-only-in-first',
      );
    });

    it('says the reconcile failed, with 500, when the table cannot be read', async () => {
      expect(await console.deliver(transaction())).toBe(204);
      const routes = consoleRoutes({
        table: { client: console.table.client, tableName: 'no-such-table' },
        refusals: console.refusals,
      });
      const answer = await upload(routes, {}, { name: 'report.csv', content: `${header}\n` });
      expect(answer.status).toBe(500);
      expect(answer.text).toMatch(/role="alert">The reconcile failed: [^<]+/);
      expect((await routes.get('/reconcile/differences.csv')).status).toBe(404);
    });
  });
});
