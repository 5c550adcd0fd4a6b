import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../../lambda/json/json-text.js';
import { sharedChromium, type TestConsole } from '../../../support/console-browser.js';
import { clickToPost } from '../../../support/console-pages.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { storedItem } from '../../../support/stored-items.js';

const browser = sharedChromium();

/** Refused for want of a hash by a strict receiver; the console's receiver takes it as it is. */
async function refusedForNoHash(console: TestConsole): Promise<string> {
  const fields = transaction();
  expect(await console.deliverBody(stringifyJson(fields), { hashMode: 'required' })).toBe(403);
  return String(fields.reference);
}

/** The references the list shows, at `path`. */
async function listedReferences(page: Page, path: string, origin: string): Promise<string[]> {
  await page.goto(`${origin}${path}`);
  return page.locator('#refusals tr td:nth-last-child(4)').allTextContents();
}

/** Ticks the list's box of the refusal whose row names `reference`. */
async function select(page: Page, reference: string) {
  await page.locator('#refusals tr', { hasText: reference }).getByRole('checkbox').check();
}

forEachEngine((engine) => {
  describe('the refusals view, open and resolved', () => {
    const console = suiteConsole(engine);
    const refusalItem = async (reference: string) => {
      const page = await console.signedIn(browser, `/refusals?state=all&reference=${reference}`);
      const href = await page.locator('#refusals a.mono').getAttribute('href');
      await page.close();
      return storedItem(console.refusals, { digest: (href ?? '').split('/').pop() ?? '' });
    };

    it('marks a refusal resolved, with who, when and why, and filters it out of the open list', async () => {
      const fields = transaction({ currency: 'lira' });
      const reference = String(fields.reference);
      expect(await console.deliver(fields)).toBe(422);
      const page = await console.signedIn(browser, '/refusals');
      expect(await listedReferences(page, '/refusals', console.server.origin)).toContain(reference);

      await page.locator('#refusals tr', { hasText: reference }).getByRole('link').click();
      await page.waitForURL(/\/refusals\/[0-9a-f]{64}$/);
      await page.getByLabel('Why it is dealt with').fill('OPS-7: gateway fixed its currency codes');
      expect(await clickToPost(page, 'Mark resolved')).toBe(200);
      const state = page.locator('dl.fields dt', { hasText: 'State' }).locator('+ dd');
      expect(await state.textContent()).toMatch(
        /^resolved marked resolved by local:.+ at \d{4}-\d\d-\d\dT[\d:.]+Z: OPS-7: gateway fixed its currency codes$/,
      );

      const item = await refusalItem(reference);
      expect(item?.resolution?.M?.why).toEqual({ S: 'OPS-7: gateway fixed its currency codes' });
      expect(item?.resolution?.M?.how).toEqual({ S: 'marked' });
      expect(await listedReferences(page, '/refusals', console.server.origin)).not.toContain(
        reference,
      );
      expect(
        await listedReferences(page, '/refusals?state=resolved', console.server.origin),
      ).toContain(reference);

      // The same body again: dealt with before, open again now.
      expect(await console.deliver(fields)).toBe(422);
      expect(await listedReferences(page, '/refusals', console.server.origin)).toContain(reference);
      expect(
        await page
          .locator('#refusals tr', { hasText: reference })
          .locator('td:last-child .badge')
          .textContent(),
      ).toBe('open again');
      await page.close();
    });

    it('resubmits selected refusals after a confirmation; each accepted one shows as resolved', async () => {
      const references = [await refusedForNoHash(console), await refusedForNoHash(console)];
      const page = await console.signedIn(browser, '/refusals');
      for (const reference of references) await select(page, reference);
      expect(await clickToPost(page, 'Resubmit selected')).toBe(200);
      expect(await page.getByRole('heading', { level: 2 }).textContent()).toMatch(
        /^Resubmit 2 refusals to http:/,
      );
      // Nothing sent yet.
      expect(
        await storedItem(console.table, { reference: references[0] as string }),
      ).toBeUndefined();
      expect(await clickToPost(page, 'Resubmit 2 refusals')).toBe(200);
      expect(await page.getByRole('status').textContent()).toBe('2 of 2 done.');
      expect(await page.locator('#outcomes tr td:last-child').allTextContents()).toEqual([
        expect.stringMatching(/now 204 recorded\.$/),
        expect.stringMatching(/now 204 recorded\.$/),
      ]);
      for (const reference of references) {
        expect((await storedItem(console.table, { reference }))?.reference).toEqual({
          S: reference,
        });
      }
      const resolved = await listedReferences(
        page,
        '/refusals?state=resolved',
        console.server.origin,
      );
      expect(resolved).toEqual(expect.arrayContaining(references));
      const row = page.locator('#refusals tr', { hasText: references[0] as string });
      expect(await row.locator('td:last-child').textContent()).toBe(
        'resolved resubmitted, 204 recorded',
      );
      await page.close();
    });

    it('marks several resolved with one reason, after a confirmation with the count', async () => {
      const kept = [transaction({ currency: 'lira' }), transaction({ currency: 'lira' })];
      for (const fields of kept) expect(await console.deliver(fields)).toBe(422);
      const page = await console.signedIn(browser, '/refusals');
      for (const fields of kept) await select(page, String(fields.reference));
      await page
        .getByLabel('Reason (kept with each one marked resolved)')
        .fill('duplicates of OPS-9');
      expect(await clickToPost(page, 'Mark selected resolved')).toBe(200);
      expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(
        'Mark 2 refusals resolved?',
      );
      expect(await clickToPost(page, 'Mark 2 refusals resolved')).toBe(200);
      expect(await page.getByRole('status').textContent()).toBe('2 of 2 done.');
      const open = await listedReferences(page, '/refusals', console.server.origin);
      for (const fields of kept) expect(open).not.toContain(String(fields.reference));
      await page.close();
    });
  });
});
