import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../../lambda/json/json-text.js';
import { resolveRefusal } from '../../../../scripts/operations/refusals/refusal-resolution.js';
import { sharedChromium } from '../../../support/console-browser.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';

const browser = sharedChromium();

forEachEngine((engine) => {
  describe('the refusals view, a page at a time', () => {
    const console = suiteConsole(engine);

    it('pages through 12 refusals 5 at a time, newest first, each seen once', async () => {
      // Several in the same millisecond too: the cursor orders equal times by digest.
      const references: string[] = [];
      await Promise.all(
        Array.from({ length: 12 }, async () => {
          const fields = transaction({ currency: 'lira' });
          references.push(String(fields.reference));
          expect(await console.deliverBody(stringifyJson(fields))).toBe(422);
        }),
      );
      const page = await console.signedIn(browser, '/refusals');
      const whole = await page.locator('#refusals tr td:nth-last-child(4)').allTextContents();
      expect(whole).toHaveLength(12);
      await page.goto(`${console.server.origin}/refusals?size=5`);
      const seen: string[] = [];
      const sizes: number[] = [];
      // At most a page more than there should be: a cursor that starts over must not loop forever.
      for (let pages = 0; pages < 4; pages += 1) {
        const rows = await page.locator('#refusals tr td:nth-last-child(4)').allTextContents();
        seen.push(...rows);
        sizes.push(rows.length);
        const next = page.getByRole('link', { name: 'Next page' });
        if ((await next.count()) === 0) break;
        await next.click();
        await page.getByRole('link', { name: 'First page' }).waitFor();
      }
      expect(sizes).toEqual([5, 5, 2]);
      expect(seen).toEqual(whole);
      expect(new Set(seen)).toEqual(new Set(references));
      await page.close();
    });

    it('pages the open ones past resolved ones between them, each open one once', async () => {
      const page = await console.signedIn(browser, '/refusals?state=all');
      const digests = await page
        .locator('#refusals a.mono')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')?.split('/').pop()));
      const context = { client: console.refusals.client, tableName: console.refusals.tableName };
      // Every third one resolved: the open list skips them, and its cursor must too.
      const resolved = digests.filter((_, index) => index % 3 === 0) as string[];
      for (const digest of resolved) {
        await resolveRefusal(context, digest, {
          by: 'local:test',
          at: new Date(Date.now() + 60_000).toISOString(),
          why: 'paging',
          how: 'marked',
        });
      }
      await page.goto(`${console.server.origin}/refusals?size=3`);
      const seen: string[] = [];
      for (let pages = 0; pages < 5; pages += 1) {
        seen.push(
          ...((await page
            .locator('#refusals a.mono')
            .evaluateAll((links) =>
              links.map((link) => link.getAttribute('href')?.split('/').pop()),
            )) as string[]),
        );
        const next = page.getByRole('link', { name: 'Next page' });
        if ((await next.count()) === 0) break;
        await next.click();
        await page.getByRole('link', { name: 'First page' }).waitFor();
      }
      expect(seen).toEqual(digests.filter((digest) => !resolved.includes(digest as string)));
      await page.close();
    });
  });
});
