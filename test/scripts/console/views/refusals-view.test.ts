import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../../lambda/json/json-text.js';
import { sharedChromium, type TestConsole } from '../../../support/console-browser.js';
import { clickToPost, forgedPost } from '../../../support/console-pages.js';
import { readOnly, suiteConsole } from '../../../support/console-suite.js';
import { type Engine, forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { storedItem } from '../../../support/stored-items.js';

const browser = sharedChromium();

const recorded = (console: TestConsole, reference: string) =>
  storedItem(console.table, { reference });

/** The list's row for a reference, once it is there. */
async function listed(page: Page, reference: string) {
  const row = page.locator('#refusals tr', { hasText: reference });
  await expect.poll(() => row.count()).toBe(1);
  return row;
}

/** The refusals list, then the page of the reference's refusal, reached by its link. */
async function refusalPage(console: TestConsole, reference: string) {
  const page = await console.signedIn(browser, '/refusals');
  await (await listed(page, reference)).getByRole('link').click();
  await page.waitForURL(/\/refusals\/[0-9a-f]{64}$/);
  return page;
}

/**
 * A delivery refused for want of a hash by a receiver that requires one: after the fix (the
 * receiver takes it without), the same bytes are welcome. As refusals-local.test.ts does it
 * with the CLI.
 */
async function refusedForNoHash(console: TestConsole) {
  const fields = transaction();
  const body = stringifyJson(fields);
  expect(await console.deliverBody(body, { hashMode: 'required' })).toBe(403);
  return String(fields.reference);
}

const resubmitted = (page: Page) => clickToPost(page, 'Resubmit');

/** The note a refusal's page shows in place of the resubmit form, checked to be absent. */
async function formlessNote(page: Page) {
  expect(await page.locator('form.resubmit').count()).toBe(0);
  return page.getByRole('note').textContent();
}

forEachEngine((engine: Engine) => {
  describe('the refusals view', () => {
    const console = suiteConsole(engine);

    it('lists a refused callback with how many times it came, and shows it whole, escaped', async () => {
      // A currency the schema refuses, and a message that must stay text on the page: markup,
      // and a bidi override sent as the raw character (the gateway's signer would escape it).
      const fields = transaction({ currency: 'lira', message: '<b>bold</b>\u202Egnp.exe' });
      const reference = String(fields.reference);
      const body = stringifyJson(fields);
      for (let time = 0; time < 3; time++) {
        expect(await console.deliverBody(body)).toBe(422);
        await sleep(5); // so the first and the last delivery are told apart
      }

      const page = await console.signedIn(browser, '/refusals');
      const row = await listed(page, reference);
      // The cells after the select box.
      const [first, last, ...cells] = await row.locator('td:not(.select)').allTextContents();
      expect(cells.slice(0, 4)).toEqual(['3', '422', 'invalid-transaction', reference]);
      // First and last delivery, each in its own column.
      expect(first).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
      expect(last).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
      expect((first as string) < (last as string)).toBe(true);

      await row.getByRole('link').click();
      await page.waitForURL(/\/refusals\/[0-9a-f]{64}$/);
      const field = (name: string) =>
        page.locator('dl.fields dt', { hasText: name }).locator('+ dd');
      expect(await field('Times').textContent()).toBe('3');
      expect(await field('Status').textContent()).toBe('422 invalid-transaction');
      expect(await field('Fields').textContent()).toContain('currency');
      expect(await field('First received').textContent()).toBe(first);
      expect(await field('Last received').textContent()).toBe(last);
      // The body as text: no element made of it, the bidi override shown as a mark.
      const shown = page.locator('pre.body');
      expect(await shown.locator('b').count()).toBe(0);
      expect(await shown.textContent()).toContain('<b>bold</b>U+202Egnp.exe');
      // Headers less credentials: the content type, never the key.
      const headers = await page.locator('table th[scope="row"]').allTextContents();
      expect(headers.map((name) => name.toLowerCase())).toContain('content-type');
      expect(headers.map((name) => name.toLowerCase())).not.toContain('x-api-key');
      await page.close();
    });

    it('resubmits a refusal after the fix and shows the receiver’s new answer', async () => {
      const reference = await refusedForNoHash(console);
      expect(await recorded(console, reference)).toBeUndefined();
      const page = await refusalPage(console, reference);
      expect(await page.locator('dl.fields').textContent()).toContain('403 hash-missing');

      expect(await resubmitted(page)).toBe(200);
      expect(await page.getByRole('status').textContent()).toMatch(
        /^Resubmitted: was 403 hash-missing; now 204 recorded\. See the transaction$/,
      );
      expect((await recorded(console, reference))?.reference).toEqual({ S: reference });
      // Again: the receiver has it now, so the same bytes are a duplicate.
      expect(await resubmitted(page)).toBe(200);
      expect(await page.getByRole('status').textContent()).toContain('now 204 duplicate');
      await page.close();
    });

    it('shows a refusal again when the receiver still refuses it', async () => {
      const fields = transaction({ currency: 'lira' });
      expect(await console.deliver(fields)).toBe(422);
      const page = await refusalPage(console, String(fields.reference));
      expect(await resubmitted(page)).toBe(200);
      expect(await page.getByRole('alert').textContent()).toMatch(
        /^Resubmitted: was 422 invalid-transaction; now 422 /,
      );
      // Counted on the kept refusal, as any delivery of the same body is.
      const times = page.locator('dl.fields dt', { hasText: 'Times' }).locator('+ dd');
      expect(await times.textContent()).toBe('2');
      await page.close();
    });
  });

  describe('the refusals view, read-only', () => {
    const console = suiteConsole(engine, readOnly);

    it('shows no resubmit form, and a forged resubmit is refused with 403 and sends nothing', async () => {
      const reference = await refusedForNoHash(console);
      const page = await refusalPage(console, reference);
      expect(await formlessNote(page)).toContain('npm run console -- --allow-actions');

      expect(await forgedPost(page, `${page.url()}/resubmit`)).toBe(403);
      expect(await recorded(console, reference)).toBeUndefined();
      // Nor marked resolved, one or several: no form offers it, and a forged one is refused.
      expect(await page.getByRole('button', { name: 'Mark resolved' }).count()).toBe(0);
      const digest = page.url().split('/').pop() ?? '';
      expect(await forgedPost(page, `${page.url()}/resolve`, { reason: 'forged' })).toBe(403);
      const selected = { item: digest, action: 'resolve', reason: 'forged', confirmed: '1' };
      expect(await forgedPost(page, `${console.server.origin}/refusals/selected`, selected)).toBe(
        403,
      );
      expect((await storedItem(console.refusals, { digest }))?.resolution).toBeUndefined();
      await page.close();
    });
  });

  describe('the refusals view without a receiver', () => {
    const console = suiteConsole(engine, { mode: 'deployed', receiver: false });

    it('says resubmit needs a receiver URL and key, and how to give them', async () => {
      const page = await refusalPage(console, await refusedForNoHash(console));
      const note = await formlessNote(page);
      expect(note).toContain('Resubmit needs a receiver');
      expect(note).toContain('--key-file');
      await page.close();
    });
  });
});
