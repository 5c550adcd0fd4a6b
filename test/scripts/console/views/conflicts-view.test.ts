import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { eventForRecord } from '../../../../lambda/events/stream-record-event.js';
import type { SerializableValue } from '../../../../lambda/json/json-text.js';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import { readReference } from '../../../../scripts/table/reference-state.js';
import { sharedChromium, type TestConsole } from '../../../support/console-browser.js';
import { clickToPost, forgedPost, postedBy } from '../../../support/console-pages.js';
import { readOnly, suiteConsole } from '../../../support/console-suite.js';
import { type Engine, forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { storedItem } from '../../../support/stored-items.js';
import { streamRecord } from '../../../support/stream-records.js';

/** What local mode's settle records as the operator: the OS user, as `npm run settle` does. */
const localOperator = `local:${userInfo().username}`;

const browser = sharedChromium();

/** A stored transaction and one conflicting delivery of it: the amount and an extra member. */
async function conflicted(console: TestConsole) {
  const stored = transaction({ amount: 1000 });
  const received: Record<string, SerializableValue> = {
    ...stored,
    amount: 1250,
    note: 'corrected by the gateway',
  };
  expect(await console.deliver(stored)).toBe(204);
  expect(await console.deliver(received)).toBe(409);
  return String(stored.reference);
}

/** The reference's transaction item as stored (`{}` when there is none). */
async function stored(console: TestConsole, reference: string) {
  return (await storedItem(console.table, { reference })) ?? {};
}

/** The reference's conflict page, its one conflict's section and settle form. */
async function conflictPage(console: TestConsole, reference: string) {
  const page = await console.signedIn(browser, `/conflicts/${encodeURIComponent(reference)}`);
  return { page, section: page.locator('section.conflict') };
}

forEachEngine((engine: Engine) => {
  describe('the conflicts view', () => {
    const console = suiteConsole(engine);

    it('lists an open conflict with the fields it differs in, linking to its comparison', async () => {
      const reference = await conflicted(console);
      const page = await console.signedIn(browser, '/conflicts');
      const row = page.locator('#conflicts tr', { hasText: reference });
      await expect.poll(() => row.count()).toBe(1);
      // The cells after the select box (an open conflict's row starts with one).
      const cells = await row.locator('td:not(.select)').allTextContents();
      expect(cells[0]).toBe(reference);
      expect(cells[5]).toBe('1');
      expect(cells[6]).toBe('open');
      expect(cells[7]).toBe('amount, extra.note');
      await row.getByRole('link', { name: reference }).click();
      await page.waitForURL(/\/conflicts\/ref-/);
      expect(await page.locator('section.conflict').count()).toBe(1);
      await page.close();
    });

    it('shows stored and received side by side, marking exactly the differing fields', async () => {
      const reference = await conflicted(console);
      const { page, section } = await conflictPage(console, reference);
      expect(await section.locator('tr.differs th code').allTextContents()).toEqual([
        'amount',
        'extra.note',
      ]);
      const amount = section.locator('tr', {
        has: page.locator('th code', { hasText: /^amount$/ }),
      });
      expect(await amount.locator('td').allTextContents()).toEqual(['1000', '1250']);
      const note = section.locator('tr.differs', { hasText: 'extra.note' });
      expect(await note.locator('td').allTextContents()).toEqual([
        '(absent)',
        '"corrected by the gateway"',
      ]);
      // The fields that agree are shown too, unmarked.
      const currency = section.locator('tr', { hasText: 'currency' });
      expect(await currency.getAttribute('class')).toBeNull();
      expect(await currency.locator('td').allTextContents()).toEqual(['TRY', 'TRY']);
      await page.close();
    });

    it('refuses a settle without a reason: the form will not send it, and the server writes nothing', async () => {
      const reference = await conflicted(console);
      const before = await stored(console, reference);
      const { page, section } = await conflictPage(console, reference);
      const reason = section.getByLabel(/Reason/);

      // Empty: the browser's own validation keeps the form from being sent.
      let posted = false;
      page.on('request', (request) => {
        if (request.method() === 'POST') posted = true;
      });
      await page.getByRole('button', { name: 'Accept received' }).click();
      expect(await section.locator('textarea:invalid').count()).toBe(1);
      expect(posted).toBe(false);

      // Blank passes the browser; the server, settleConflict itself, refuses it.
      await reason.fill('   ');
      expect(await clickToPost(page, 'Accept received')).toBe(422);
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toMatch(/^Not settled, nothing was written: a reason is required/);
      expect(await stored(console, reference)).toEqual(before);
      await page.close();
    });

    it('accepting the received content corrects the stored transaction, keeps its history and leads to Transaction Corrected', async () => {
      const reference = await conflicted(console);
      const { page, section } = await conflictPage(console, reference);
      await section.getByLabel(/Reason/).fill('OPS-41: gateway corrected the amount');
      expect(await clickToPost(page, 'Accept received')).toBe(200);
      expect(await page.getByRole('status').textContent()).toMatch(
        /^Settled conflict [0-9a-f]{12} of ".+": corrected: the received content is version 2/,
      );

      const item = await stored(console, reference);
      expect(item.amount).toEqual({ N: '1250' });
      expect(item.extra).toEqual({ S: '{"note":"corrected by the gateway"}' });
      expect(item.version).toEqual({ N: '2' });
      expect(item.lastChange).toEqual({ S: 'correction' });
      expect(item.correction?.M?.settledBy).toEqual({ S: localOperator });
      const [previous] = item.history?.L ?? [];
      expect(previous?.M?.version).toEqual({ N: '1' });
      expect(previous?.M?.transaction?.M?.amount).toEqual({ N: '1000' });
      expect(previous?.M?.supersededBy).toEqual({ S: localOperator });
      expect(previous?.M?.reason).toEqual({ S: 'OPS-41: gateway corrected the amount' });
      // The write the stream consumer sees: the event `npm run settle` leads to.
      const event = eventForRecord(streamRecord('MODIFY', item));
      expect(event?.detailType).toBe('Transaction Corrected');
      // Settled: no longer open, and its page offers no form.
      expect(await page.locator('form.settle').count()).toBe(0);
      await page.goto(`${console.server.origin}/conflicts`);
      expect(await page.locator('#conflicts tr', { hasText: reference }).count()).toBe(0);
      await page.close();
    });

    it('keeping the stored content leaves the transaction as it was and records the decision (by keyboard)', async () => {
      const reference = await conflicted(console);
      const { page, section } = await conflictPage(console, reference);
      await section.getByLabel(/Reason/).focus();
      await page.keyboard.type('OPS-42: reference reused by mistake');
      await page.keyboard.press('Tab'); // Accept received
      await page.keyboard.press('Tab'); // Keep stored
      expect(await postedBy(page, () => page.keyboard.press('Enter'))).toBe(200);
      expect(await page.getByRole('status').textContent()).toMatch(
        /closed: the stored transaction \(version 1\) stands/,
      );

      const item = await stored(console, reference);
      expect(item.amount).toEqual({ N: '1000' });
      expect(item.version).toBeUndefined();
      expect(item.history).toBeUndefined();
      expect(item.lastChange).toEqual({ S: 'settlement' });
      const [decision] = Object.values(item.settlements?.M ?? {});
      expect(decision?.M?.resolution).toEqual({ S: 'stored' });
      expect(decision?.M?.settledBy).toEqual({ S: localOperator });
      expect(decision?.M?.reason).toEqual({ S: 'OPS-42: reference reused by mistake' });
      expect(eventForRecord(streamRecord('MODIFY', item))).toBeUndefined();
      // With All, the settled conflict is listed with its decision.
      await page.goto(`${console.server.origin}/conflicts?all=1`);
      const row = page.locator('#conflicts tr', { hasText: reference });
      expect(await row.locator('td:not(.select)').nth(6).textContent()).toBe(
        `settled stored by ${localOperator}`,
      );
      await page.close();
    });

    it('says so, and writes nothing, when another operator settled first', async () => {
      const reference = await conflicted(console);
      const { page, section } = await conflictPage(console, reference);
      await section.getByLabel(/Reason/).fill('OPS-43: late decision');
      // Meanwhile, from a terminal: npm run settle's own function.
      await settleConflict(console.table, {
        reference,
        decision: {
          accept: 'stored',
          actor: 'local:ops-b',
          reason: 'OPS-43 first',
          at: '2026-11-25T16:00:00.000Z',
        },
      });
      const settledByOther = await stored(console, reference);

      expect(await clickToPost(page, 'Accept received')).toBe(409);
      const alert = await page.getByRole('alert').textContent();
      expect(alert).toMatch(/^Not settled, nothing was written: no open conflict [0-9a-f]{12}/);
      expect(alert).toContain('settled stored by local:ops-b');
      expect(await stored(console, reference)).toEqual(settledByOther);
      await page.close();
    });
  });

  describe('the conflicts view, read-only', () => {
    const console = suiteConsole(engine, readOnly);

    it('shows the comparison without a settle form, and refuses a forged settle with 403', async () => {
      const reference = await conflicted(console);
      const before = await stored(console, reference);
      const { page, section } = await conflictPage(console, reference);
      expect(await section.locator('tr.differs').count()).toBe(2);
      expect(await page.locator('form').count()).toBe(0);
      expect(await section.getByRole('note').textContent()).toContain(
        'npm run console -- --allow-actions',
      );

      // The page's own origin and CSRF token, the real conflict: all a genuine form would send.
      const [open] = (await readReference(console.table, reference)).conflicts;
      const settle = `${console.server.origin}/conflicts/${encodeURIComponent(reference)}/settle`;
      const forged = await forgedPost(page, settle, {
        conflict: open?.fingerprint ?? '',
        version: '1',
        accept: 'received',
        reason: 'forged',
      });
      expect(forged).toBe(403);
      expect(await stored(console, reference)).toEqual(before);
      await page.close();
    });
  });
});
