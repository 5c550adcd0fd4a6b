import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEventForwarding } from '../../../../scripts/local/events/event-forwarding.js';
import { noteChanges } from '../../../../scripts/operations/events/change-notes.js';
import { readDeadLetters } from '../../../../scripts/operations/events/dead-letters.js';
import { eventFiles } from '../../../../scripts/operations/events/event-files.js';
import { settleConflict } from '../../../../scripts/operations/settle/settle.js';
import { sharedChromium, startTestConsole } from '../../../support/console-browser.js';
import { createTestClient, forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';

/** Where local forwarding stands with each event, as the transaction page shows it. */
const browser = sharedChromium();

forEachEngine((engine) => {
  describe('the transaction view with local event forwarding', () => {
    it('shows each event delivered, dead-lettered or still pending, from the forwarding folder', async () => {
      // A consumer that takes completions, refuses conflicts, and holds corrections unanswered.
      const held: ServerResponse[] = [];
      const received: string[] = [];
      const consumer = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          const kind = (JSON.parse(body) as { 'detail-type': string })['detail-type'];
          received.push(kind);
          if (kind === 'Transaction Completed') response.writeHead(204).end();
          else if (kind === 'Transaction Conflict') response.writeHead(500).end();
          else held.push(response);
        });
      });
      await new Promise<void>((resolve) => consumer.listen(0, '127.0.0.1', resolve));
      const runDir = await mkdtemp(join(tmpdir(), 'console-events-'));
      const files = eventFiles(runDir);
      const console = await startTestConsole(engine, { eventFiles: files });
      const forwarding = await startEventForwarding(
        runDir,
        { client: createTestClient(engine), tableName: console.table.tableName },
        {
          url: `http://127.0.0.1:${(consumer.address() as AddressInfo).port}/events`,
          pollMs: 50,
          policy: { attempts: 1, attemptTimeoutMs: 60_000 },
          log: () => {},
        },
      );
      try {
        const stored = transaction({ amount: 1000 });
        const reference = String(stored.reference);
        expect(await console.deliver(stored)).toBe(204);
        expect(await console.deliver({ ...stored, amount: 1250 })).toBe(409);
        // One change at a time, so the local stream sees each as the deployed stream would.
        await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
        await expect
          .poll(async () => (await readDeadLetters(files.deadLetters)).length, { timeout: 10_000 })
          .toBe(1);
        await settleConflict(console.table, {
          reference,
          decision: {
            accept: 'received',
            actor: 'local:ops-a',
            reason: 'ticket OPS-8',
            at: new Date().toISOString(),
          },
        });
        // What npm run settle and the console's settle do after the write: tell forwarding.
        await noteChanges(files, [reference]);
        await expect.poll(() => held.length, { timeout: 10_000 }).toBe(1);

        const page = await console.signedIn(browser, `/transactions/${reference}?tab=events`);
        const rows = page.locator('table.events tbody tr');
        expect(await rows.locator('td:first-child').allTextContents()).toEqual([
          'Transaction Completed',
          'Transaction Conflict',
          'Transaction Corrected',
        ]);
        const states = await rows.locator('td.delivery').allInnerTexts();
        expect(states[0]).toBe('delivered');
        expect(states[1]).toMatch(/^dead letter after 1 tries: .*500/);
        expect(states[2]).toBe('pending');
        await page.close();
      } finally {
        for (const response of held) response.writeHead(204).end();
        await forwarding.stop();
        await new Promise((resolve) => consumer.close(resolve));
        await console.close();
        await rm(runDir, { recursive: true, force: true });
      }
    });
  });
});
