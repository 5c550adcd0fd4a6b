import { beforeAll, describe, expect, it } from 'vitest';
import { sharedChromium } from '../../../support/console-browser.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';

const browser = sharedChromium();

forEachEngine((engine) => {
  describe('the transactions view', () => {
    const console = suiteConsole(engine);
    const references: string[] = [];
    beforeAll(async () => {
      for (const username of ['ana', 'ben', 'ana']) {
        const fields = transaction({ username });
        references.push(String(fields.reference));
        expect(await console.deliver(fields)).toBe(204);
      }
    });

    it('lists every transaction newest first, each linking to its page', async () => {
      const page = await console.signedIn(browser, '/transactions');
      const links = page.locator('#rows tr td a');
      await expect.poll(() => links.allTextContents()).toEqual([...references].reverse());
      expect(await links.first().getAttribute('href')).toBe(
        `/transactions/${encodeURIComponent(references[2] as string)}`,
      );
      // Nothing but cells in a row: text there would be moved above the table by the browser.
      const stray = await page.locator('.table-wrap').evaluate((wrap) =>
        [...wrap.childNodes]
          .filter((node) => node.nodeName !== 'TABLE')
          .map((node) => node.textContent?.trim())
          .join(''),
      );
      expect(stray).toBe('');
      await page.close();
    });

    it('filters by username and by reference', async () => {
      const page = await console.signedIn(browser, '/transactions');
      await page.getByLabel('Username').fill('ana');
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect
        .poll(() => page.locator('#rows tr td a').allTextContents())
        .toEqual([references[2], references[0]]);
      await page.goto(`${console.server.origin}/transactions?reference=${references[1]}`);
      expect(await page.locator('#rows tr td a').allTextContents()).toEqual([references[1]]);
      await page.close();
    });

    it('shows a new transaction without a reload, within 2 s', async () => {
      const page = await console.signedIn(browser, '/transactions');
      await page.locator('#rows tr').first().waitFor();
      const fields = transaction({ username: 'live' });
      expect(await console.deliver(fields)).toBe(204);
      const started = Date.now();
      await page
        .locator('#rows tr')
        .first()
        .getByText(String(fields.reference))
        .waitFor({ timeout: 2_000 });
      expect(Date.now() - started).toBeLessThanOrEqual(2_000);
      // Once: the next polls bring nothing new.
      await page.waitForTimeout(1_200);
      expect(await page.getByText(String(fields.reference)).count()).toBe(1);
      await page.close();
    });

    it('filters by status and type, chosen from the declared values', async () => {
      const fields = transaction({ username: 'chooser', status: 'Reject', type: 'Withdrawal' });
      expect(await console.deliver(fields)).toBe(204);
      expect(await console.deliver(transaction({ username: 'chooser' }))).toBe(204);
      const page = await console.signedIn(browser, '/transactions?username=chooser');
      expect(await page.getByLabel('Status').locator('option').allTextContents()).toEqual([
        'any',
        'Confirm',
        'Reject',
      ]);
      await page.getByLabel('Status').selectOption('Reject');
      await page.getByLabel('Type').selectOption('Withdrawal');
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect
        .poll(() => page.locator('#rows tr td a').allTextContents())
        .toEqual([String(fields.reference)]);
      expect(await page.getByLabel('Status').inputValue()).toBe('Reject');
      await page.close();
    });

    it('opens a transaction whose reference is a word the list uses, such as live', async () => {
      const fields = transaction({ reference: 'live', username: 'worded' });
      expect(await console.deliver(fields)).toBe(204);
      const page = await console.signedIn(browser, '/transactions?username=worded');
      await page.getByRole('link', { name: 'live', exact: true }).click();
      await page.waitForURL(`${console.server.origin}/transactions/live`);
      expect(await page.locator('h1').textContent()).not.toMatch(/not found/i);
      expect(await page.getByText('worded').count()).toBeGreaterThan(0);
      await page.close();
    });

    it("searches one box for a reference's start, the gateway's id, a username in any case", async () => {
      const stem = `srch-${Date.now().toString(36)}`;
      const gatewayId = 880_000_000_000 + Math.floor(Math.random() * 1e9);
      const found = [
        transaction({ reference: `${stem}-a`, username: 'Search.Person' }),
        transaction({ reference: `${stem}-b`, id: gatewayId }),
      ];
      for (const fields of found) expect(await console.deliver(fields)).toBe(204);
      const page = await console.signedIn(browser, '/transactions');
      const rows = page.locator('#rows tr td a');

      await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(stem);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => rows.allTextContents()).toEqual([`${stem}-a`, `${stem}-b`]);
      expect(new URL(page.url()).searchParams.get('q')).toBe(stem);
      expect(await page.getByRole('region', { name: 'What was searched' }).textContent()).toMatch(
        new RegExp(`references starting with "${stem}": 2 found`),
      );

      // A shared link runs the same search; the row says what it matched.
      await page.goto(`${console.server.origin}/transactions?q=${gatewayId}`);
      expect(await rows.allTextContents()).toEqual([`${stem}-b`]);
      expect(await page.locator('#rows tr td').last().textContent()).toBe('gateway id');

      await page.goto(`${console.server.origin}/transactions?q=SEARCH.PERSON`);
      expect(await rows.allTextContents()).toEqual([`${stem}-a`]);
      expect(await page.locator('#rows').textContent()).toContain('Search.Person');
      expect(await page.getByRole('region', { name: 'What was searched' }).textContent()).toMatch(
        /username "search\.person" in any letter case: 1 found/,
      );

      await page.goto(`${console.server.origin}/transactions?q=${stem}-zzz`);
      expect(await page.locator('caption').textContent()).toBe(`Nothing matches “${stem}-zzz”.`);
      await page.close();
    });

    it('pages by cursor: Older shows the rest, and nothing twice', async () => {
      const page = await console.signedIn(browser, '/transactions');
      const all = await page.locator('#rows tr td a').allTextContents();
      expect(all.length).toBeGreaterThanOrEqual(3);
      // Two-row pages over the same data, through the server's own cursor links.
      const seen: string[] = [];
      let url: string | null = '/transactions?size=2';
      await page.goto(`${console.server.origin}${url}`);
      for (;;) {
        seen.push(...(await page.locator('#rows tr td a').allTextContents()));
        const older = page.getByRole('link', { name: 'Older' });
        if ((await older.count()) === 0) break;
        url = await older.getAttribute('href');
        await page.goto(`${console.server.origin}${url}`);
      }
      expect(seen).toEqual(all);
      await page.close();
    });
  });
});
