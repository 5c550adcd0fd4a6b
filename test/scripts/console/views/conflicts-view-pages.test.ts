import { describe, expect, it } from 'vitest';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import { sharedChromium, type TestConsole } from '../../../support/console-browser.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';

const browser = sharedChromium();

/** `count` references, each with one conflicting delivery (another amount). */
async function conflicts(console: TestConsole, count: number): Promise<string[]> {
  const references: string[] = [];
  for (let made = 0; made < count; made += 1) {
    const stored = transaction({ amount: 1000 });
    expect(await console.deliver(stored)).toBe(204);
    expect(await console.deliver({ ...stored, amount: 1001 })).toBe(409);
    references.push(String(stored.reference));
  }
  return references;
}

/** Every conflict the list shows from `path` on, following its Next page links; and the pages. */
async function pageThrough(console: TestConsole, path: string) {
  const page = await console.signedIn(browser, path);
  const seen: string[] = [];
  const pages: number[] = [];
  for (;;) {
    const rows = await page.locator('#conflicts tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = tr.querySelectorAll('td:not(.select)');
        return `${cells[0]?.textContent} ${cells[1]?.textContent}`;
      }),
    );
    seen.push(...rows);
    pages.push(rows.length);
    const next = page.getByRole('link', { name: 'Next page' });
    if ((await next.count()) === 0) break;
    await next.click();
    await page.waitForLoadState('domcontentloaded');
    await page.getByRole('link', { name: 'First page' }).waitFor();
  }
  await page.close();
  return { seen, pages };
}

forEachEngine((engine) => {
  describe('the conflicts view, a page at a time', () => {
    const console = suiteConsole(engine);

    it('pages through 60 conflicts 25 at a time, each seen once, then only the open ones', async () => {
      const references = await conflicts(console, 60);
      const all = await pageThrough(console, '/conflicts?size=25');
      expect(all.pages).toEqual([25, 25, 10]);
      expect(new Set(all.seen).size).toBe(60);
      expect(new Set(all.seen.map((row) => row.split(' ')[0]))).toEqual(new Set(references));

      // Settled ones leave the open list, and its pages still show each open one once.
      const context = { client: console.table.client, tableName: console.table.tableName };
      for (const reference of references.slice(0, 10)) {
        await settleConflict(context, {
          reference,
          decision: {
            accept: 'stored',
            reason: 'paging test',
            actor: 'local:test',
            at: new Date().toISOString(),
          },
        });
      }
      const open = await pageThrough(console, '/conflicts?size=25');
      expect(open.seen.length).toBe(50);
      expect(new Set(open.seen).size).toBe(50);
      expect(
        open.seen.some((row) => references.slice(0, 10).includes(row.split(' ')[0] ?? '')),
      ).toBe(false);
      const kept = await pageThrough(console, '/conflicts?all=1&size=25');
      expect(new Set(kept.seen).size).toBe(60);
    }, 60_000);

    it('starts over from the first page when the cursor is not one of its own', async () => {
      const page = await console.signedIn(browser, '/conflicts?size=5&after=bm90LWEta2V5');
      expect(await page.locator('#conflicts tr').count()).toBe(5);
      await page.goto(
        `${console.server.origin}/conflicts?size=5&after=${Buffer.from('{"__proto__":{"S":"x"},"a":{"BOOL":true}}').toString('base64url')}`,
      );
      expect(await page.locator('#conflicts tr').count()).toBe(5);
      await page.close();
    });
  });
});
