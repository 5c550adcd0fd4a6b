import { describe, expect, it } from 'vitest';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import { readReference } from '../../../../scripts/table/reference-state.js';
import { sharedChromium, type TestConsole } from '../../../support/console-browser.js';
import { clickToPost } from '../../../support/console-pages.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';

const browser = sharedChromium();

/** A stored transaction and one conflicting delivery of it (another amount). */
async function conflicted(console: TestConsole): Promise<string> {
  const stored = transaction({ amount: 1000 });
  expect(await console.deliver(stored)).toBe(204);
  expect(await console.deliver({ ...stored, amount: 1250 })).toBe(409);
  return String(stored.reference);
}

forEachEngine((engine) => {
  describe('the conflicts view, settling several at once', () => {
    const console = suiteConsole(engine);
    const context = () => ({ client: console.table.client, tableName: console.table.tableName });

    it('settles 3 selected conflicts with one reason, after a confirmation with the count', async () => {
      const chosen = [
        await conflicted(console),
        await conflicted(console),
        await conflicted(console),
      ];
      const untouched = await conflicted(console);
      const page = await console.signedIn(browser, '/conflicts');
      for (const reference of chosen) {
        await page.getByRole('checkbox', { name: new RegExp(`^Select ${reference} `) }).check();
      }
      await page
        .getByLabel('Reason (recorded with each decision)')
        .fill('gateway ticket 5512: amounts corrected');
      expect(await clickToPost(page, 'Accept received for selected')).toBe(200);

      // Nothing written yet: the confirmation names the count and each conflict.
      expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(
        'Settle 3 conflicts, accepting the received content?',
      );
      expect(await page.locator('ul.selected li').count()).toBe(3);
      for (const reference of chosen) {
        expect(
          (await readReference(context(), reference)).conflicts[0]?.settlement,
        ).toBeUndefined();
      }

      expect(await clickToPost(page, 'Settle 3 conflicts')).toBe(200);
      expect(await page.getByRole('status').textContent()).toBe('3 of 3 done.');
      expect(await page.locator('#outcomes .badge').allTextContents()).toEqual([
        'done',
        'done',
        'done',
      ]);
      for (const reference of chosen) {
        const state = await readReference(context(), reference);
        expect(state.conflicts[0]?.settlement).toMatchObject({
          resolution: 'received',
          reason: 'gateway ticket 5512: amounts corrected',
        });
        expect(state.version).toBe(2);
      }
      expect((await readReference(context(), untouched)).conflicts[0]?.settlement).toBeUndefined();
      await page.close();
    });

    it('reports the one that moved meanwhile and still settles the others', async () => {
      const chosen = [await conflicted(console), await conflicted(console)];
      const page = await console.signedIn(browser, '/conflicts');
      for (const reference of chosen) {
        await page.getByRole('checkbox', { name: new RegExp(`^Select ${reference} `) }).check();
      }
      await page.getByLabel('Reason (recorded with each decision)').fill('kept as recorded');
      expect(await clickToPost(page, 'Keep stored for selected')).toBe(200);
      // Another operator settles the first one between the confirmation and the click.
      await settleConflict(context(), {
        reference: chosen[0] as string,
        decision: {
          accept: 'received',
          reason: 'first',
          actor: 'local:other',
          at: new Date().toISOString(),
        },
      });
      expect(await clickToPost(page, 'Settle 2 conflicts')).toBe(200);
      expect(await page.getByRole('status').textContent()).toBe(
        '1 of 2 done; 1 failed and were left as they were.',
      );
      const rows = page.locator('#outcomes tr');
      expect(await rows.nth(0).textContent()).toMatch(/failed\s*Not settled, nothing was written/);
      expect(await rows.nth(1).locator('.badge').textContent()).toBe('done');
      expect(
        (await readReference(context(), chosen[1] as string)).conflicts[0]?.settlement,
      ).toMatchObject({
        resolution: 'stored',
      });
      await page.close();
    });
  });
});
