import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../../lambda/json/json-text.js';
import { DynamoDbRefusalStore } from '../../../../lambda/refusals/dynamodb-refusal-store.js';
import type { RefusalRecord } from '../../../../lambda/refusals/refusal.js';
import type { TestConsole } from '../../../support/console-browser.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { type Engine, forEachEngine } from '../../../support/engines.js';
import { specKey, transaction } from '../../../support/fixtures.js';
import { storedItem } from '../../../support/stored-items.js';
import { type ConsoleRoutes, consoleRoutes } from '../support/console-routes.js';

/**
 * The Refusals view's routes asked in-process, without a browser: the list's filters and pages,
 * the forms' refusals and what each action writes. refusals-view.test.ts drives the same pages
 * in Chromium for what only a browser shows.
 */

/** A callback the schema refuses (422), kept under its reference; each call a new body. */
async function refused(console: TestConsole, reference?: string) {
  const fields = transaction({ currency: 'lira', ...(reference ? { reference } : {}) });
  expect(await console.deliverBody(stringifyJson(fields))).toBe(422);
  return String(fields.reference);
}

/** A body a receiver that requires a hash refuses (403), and welcomes once it no longer does. */
async function refusedForNoHash(console: TestConsole) {
  const fields = transaction();
  expect(await console.deliverBody(stringifyJson(fields), { hashMode: 'required' })).toBe(403);
  return String(fields.reference);
}

/** The digests the list links to, in its order. */
function digestsIn(page: string): string[] {
  return [...page.matchAll(/href="\/refusals\/([0-9a-f]{64})"/g)].map((match) => match[1] ?? '');
}

async function digestOf(routes: ConsoleRoutes, reference: string): Promise<string> {
  const [digest] = digestsIn((await routes.get(`/refusals?state=all&reference=${reference}`)).text);
  if (digest === undefined) throw new Error(`no refusal listed for ${reference}`);
  return digest;
}

/** A refusal kept as the receiver keeps one, with what a test needs that a callback rarely has. */
async function kept(console: TestConsole, record: Partial<RefusalRecord>) {
  const digest = randomBytes(32).toString('hex');
  const body = record.body ?? new TextEncoder().encode('{}');
  const store = new DynamoDbRefusalStore(console.refusals.client, console.refusals.tableName);
  await store.keep({
    digest,
    body,
    bodyBytes: body.length,
    headers: { 'content-type': 'application/json' },
    headersDropped: 0,
    status: 400,
    problem: 'malformed-json',
    receivedAt: new Date(),
    keyId: 'key-1',
    requestId: 'req-kept',
    sourceIp: '203.0.113.9',
    ...record,
  });
  return digest;
}

/** A loopback URL where nothing listens: the port of a server just closed. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}/callback`;
}

const noIdentity = () => Promise.reject(new Error('the STS token expired'));

forEachEngine((engine: Engine) => {
  describe('the refusals view, route by route', () => {
    const console = suiteConsole(engine);

    describe('the list', () => {
      it('answers 400 and says why when Since is not a time', async () => {
        const answer = await consoleRoutes(console).get('/refusals?since=last-tuesday');
        expect(answer.status).toBe(400);
        expect(answer.text).toMatch(/<p class="notice error" role="alert">[^<]*since/i);
        expect(answer.text).toContain('No open kept refusals match.');
      });

      it('lists open ones by default, resolved ones under Resolved, and both under All', async () => {
        const routes = consoleRoutes(console);
        const reference = `state-${Date.now()}`;
        await refused(console, reference);
        await refused(console, reference);
        const [resolved, open] = digestsIn(
          (await routes.get(`/refusals?state=all&reference=${reference}`)).text,
        );
        expect(
          (await routes.post(`/refusals/${resolved}/resolve`, { reason: 'TICKET-7' })).status,
        ).toBe(200);

        const openList = await routes.get(`/refusals?reference=${reference}`);
        expect(digestsIn(openList.text)).toEqual([open]);
        expect(openList.text).toContain('1 open kept refusal, newest first');
        expect(openList.text).toMatch(/<a href="[^"]*"\s*aria-current="page">Open/);

        const resolvedList = await routes.get(`/refusals?reference=${reference}&state=resolved`);
        expect(digestsIn(resolvedList.text)).toEqual([resolved]);
        expect(resolvedList.text).toContain('TICKET-7');
        expect(resolvedList.text).toContain('<input type="hidden" name="state" value="resolved">');

        const all = await routes.get(`/refusals?reference=${reference}&since=2000-01-01&state=all`);
        expect(digestsIn(all.text).sort()).toEqual([open, resolved].sort());
        expect(all.text).toContain('2 kept refusals, newest first');
      });

      it('pages by ?size=, keeps the size on its links, and starts over on a cursor not its own', async () => {
        const routes = consoleRoutes(console);
        const reference = `pages-${Date.now()}`;
        for (let body = 0; body < 3; body += 1) {
          await refused(console, reference);
          await sleep(2); // three times, so the order is the delivery order
        }
        const first = await routes.get(`/refusals?reference=${reference}&size=2`);
        expect(digestsIn(first.text)).toHaveLength(2);
        expect(first.text).toContain('2 open kept refusals, newest first (this page)');
        const next = /<a href="([^"]*)" rel="next">/
          .exec(first.text)?.[1]
          ?.replaceAll('&amp;', '&');
        expect(next).toContain('size=2');

        const second = await routes.get(next as string);
        expect(digestsIn(second.text)).toHaveLength(1);
        expect(digestsIn(second.text)[0]).not.toBe(digestsIn(first.text)[0]);
        expect(second.text).toMatch(/<a href="[^"]*size=2[^"]*">First page<\/a>/);
        expect(second.text).not.toContain('rel="next"');

        for (const after of [
          'not-base64-json',
          Buffer.from('null').toString('base64url'),
          Buffer.from(JSON.stringify({ at: 'x', seen: ['NOT-HEX'] })).toString('base64url'),
        ]) {
          const again = await routes.get(`/refusals?reference=${reference}&size=2&after=${after}`);
          expect(digestsIn(again.text)).toEqual(digestsIn(first.text));
          expect(again.text).not.toContain('First page');
        }
      });
    });

    it('pages through refusals last delivered in the same millisecond, each once', async () => {
      const routes = consoleRoutes(console);
      const reference = `same-ms-${Date.now()}`;
      const receivedAt = new Date();
      const digests: string[] = [];
      for (let body = 0; body < 3; body += 1) {
        digests.push(await kept(console, { reference, receivedAt }));
      }
      const shown: string[] = [];
      let path: string | undefined = `/refusals?reference=${reference}&size=1`;
      while (path !== undefined && shown.length < 5) {
        const page: string = (await routes.get(path)).text;
        shown.push(...digestsIn(page));
        path = /<a href="([^"]*)" rel="next">/.exec(page)?.[1]?.replaceAll('&amp;', '&');
      }
      expect(shown.sort()).toEqual(digests.sort());
    });

    describe('one refusal', () => {
      it('answers 404 for a digest that is not kept, and says what a digest must be', async () => {
        const routes = consoleRoutes(console);
        const missing = await routes.get(`/refusals/${'0'.repeat(64)}`);
        expect(missing).toEqual({
          status: 404,
          text: `No kept refusal ${'0'.repeat(64)}: it may have expired (kept 90 days by default).`,
        });
        const malformed = await routes.get('/refusals/xyz');
        expect(malformed.status).toBe(404);
        expect(malformed.text).toMatch(/8 to 64 hex digits/);
        for (const action of ['resolve', 'resubmit']) {
          expect((await routes.post(`/refusals/${'0'.repeat(64)}/${action}`)).status).toBe(404);
        }
      });

      it('shows a part-kept body as part, says it cannot be resubmitted, and sends nothing', async () => {
        const routes = consoleRoutes(console);
        const digest = await kept(console, {
          body: new TextEncoder().encode('{"reference":"big'),
          bodyBytes: 70_000,
          status: 413,
          problem: 'payload-too-large',
          headersDropped: 1,
        });
        const page = await routes.get(`/refusals/${digest}`);
        expect(page.text).toContain('the first 17 of 70000 bytes, as received (UTF-8).');
        expect(page.text).toContain(
          'Resubmit is not possible: only the first 17 of 70000 bytes of this body were kept',
        );
        expect(page.text).toContain('1 more header was left out (size caps).');
        expect(page.text).toContain('(none in the body)');

        const answer = await routes.post(`/refusals/${digest}/resubmit`);
        expect(answer.status).toBe(200);
        expect(answer.text).toMatch(
          /role="alert" id="outcome">Not sent: only the first 17 of 70000 bytes/,
        );
      });

      it('shows a body that is not UTF-8 as base64, with the id and every left-out header counted', async () => {
        const digest = await kept(console, {
          body: Uint8Array.from([0xff, 0xfe, 0x00, 0x41]),
          reference: 'ref-binary',
          id: '42',
          headersDropped: 3,
        });
        const page = await consoleRoutes(console).get(`/refusals/${digest}`);
        expect(page.text).toContain('4 bytes; not UTF-8, so shown as base64.');
        expect(page.text).toContain('<pre class="body">//4AQQ==</pre>');
        expect(page.text).toContain('<dt>Transaction id</dt><dd><code>42</code></dd>');
        expect(page.text).toContain('3 more headers were left out (size caps).');
      });

      it('tells a deployed console without a receiver how to resubmit from a terminal', async () => {
        const digest = await kept(console, {});
        const routes = consoleRoutes(console, { mode: 'deployed', receiver: false });
        const page = await routes.get(`/refusals/${digest}`);
        expect(page.text).toContain(
          `npm run resubmit -- ${digest.slice(0, 16)} --url &lt;callback URL&gt;`,
        );
        const list = await routes.get('/refusals');
        expect(list.text).toContain('Mark selected resolved');
        expect(list.text).not.toContain('Resubmit selected');
        const posted = await routes.post(`/refusals/${digest}/resubmit`);
        expect(posted).toEqual({
          status: 503,
          text: 'Refused: no receiver is configured for resubmit; nothing was sent.',
        });
      });

      it('says local mode gives its own receiver, and offers application/json for a body kept without a type', async () => {
        const digest = await kept(console, { headers: {} });
        const page = await consoleRoutes(console, { receiver: false }).get(`/refusals/${digest}`);
        expect(page.text).toContain('Local mode gives its own when npm start serves the console.');
        const withReceiver = await consoleRoutes(console).get(`/refusals/${digest}`);
        expect(withReceiver.text).toContain('placeholder="application/json"');
      });

      it('shows no action on a read-only console, only why and how to turn them on', async () => {
        const digest = await kept(console, {});
        const page = await consoleRoutes(console, { allowActions: false, mode: 'deployed' }).get(
          `/refusals/${digest}`,
        );
        expect(page.text).toContain('review but not resubmit this refusal');
        expect(page.text).not.toContain('Mark resolved');
        expect(page.text).not.toContain('<form class="stacked');
      });
    });

    describe('marking one resolved', () => {
      it('records who and why, offers to mark again, and shows it open again once redelivered', async () => {
        const routes = consoleRoutes(console);
        const fields = transaction({ currency: 'lira' });
        const body = stringifyJson(fields);
        expect(await console.deliverBody(body)).toBe(422);
        const digest = await digestOf(routes, String(fields.reference));

        const marked = await routes.post(`/refusals/${digest}/resolve`, {
          reason: 'gateway fixed',
        });
        expect(marked.status).toBe(200);
        expect(marked.text).toContain('Marked resolved by local:tester.');
        expect(marked.text).toContain('Already resolved; marking it again replaces the reason.');
        expect(marked.text).toMatch(/resolved<\/span> marked resolved by local:tester at/);

        await sleep(5);
        expect(await console.deliverBody(body)).toBe(422);
        const again = await routes.get(`/refusals/${digest}`);
        expect(again.text).toContain('open again</span> delivered again since it was marked');
        expect(again.text).not.toContain('Already resolved');
        const list = await routes.get(`/refusals?reference=${fields.reference}`);
        expect(list.text).toContain('>open again</span>');
      });

      it('refuses an empty reason with 422 and writes nothing', async () => {
        const routes = consoleRoutes(console);
        const digest = await digestOf(routes, await refused(console));
        const answer = await routes.post(`/refusals/${digest}/resolve`);
        expect(answer.status).toBe(422);
        expect(answer.text).toContain('Not marked, nothing was written: a reason is required');
        expect(answer.text).toMatch(/<dt>State<\/dt><dd><span class="badge open">open</);
      });

      it('answers 503 when who the operator is cannot be established, and writes nothing', async () => {
        const digest = await digestOf(consoleRoutes(console), await refused(console));
        const routes = consoleRoutes(console, { operator: noIdentity });
        const answer = await routes.post(`/refusals/${digest}/resolve`, { reason: 'done' });
        expect(answer.status).toBe(503);
        expect(answer.text).toContain('Not marked, nothing was written: the STS token expired.');
        expect(answer.text).toMatch(/<dt>State<\/dt><dd><span class="badge open">open</);
      });
    });

    describe('resubmitting one', () => {
      it('marks a refusal the receiver now records resolved, as resubmitted by the operator', async () => {
        const routes = consoleRoutes(console);
        const digest = await digestOf(routes, await refusedForNoHash(console));
        const answer = await routes.post(`/refusals/${digest}/resubmit`);
        expect(answer.status).toBe(200);
        expect(answer.text).toMatch(
          /resolved<\/span> resubmitted by local:tester at <time[^>]*>[^<]*<\/time>: resubmitted, 204 recorded/,
        );
      });

      it('sends the body with the Content-Type given, and says when it could not mark it resolved', async () => {
        const reference = await refusedForNoHash(console);
        const digest = await digestOf(consoleRoutes(console), reference);
        const routes = consoleRoutes(console, { operator: () => Promise.reject('no identity') });
        const answer = await routes.post(`/refusals/${digest}/resubmit`, {
          contentType: 'application/json; charset=utf-8',
        });
        expect(answer.status).toBe(200);
        expect(answer.text).toContain(
          'Resubmitted: was 403 hash-missing; now 204 recorded. Not marked resolved: no identity.',
        );
        expect((await storedItem(console.table, { reference }))?.reference).toEqual({
          S: reference,
        });
      });

      it('answers 502 and explains it when the receiver does not answer', async () => {
        const digest = await digestOf(consoleRoutes(console), await refused(console));
        const url = await closedPortUrl();
        const routes = consoleRoutes(console, { receiver: { url, apiKey: specKey } });
        const answer = await routes.post(`/refusals/${digest}/resubmit`);
        expect(answer.status).toBe(502);
        expect(answer.text).toContain(`connection refused by ${new URL(url).host}`);
      });
    });

    describe('several at once', () => {
      it('says what is missing with 422, and sends nothing', async () => {
        const routes = consoleRoutes(console);
        const digest = await digestOf(routes, await refused(console));
        const cases = [
          [{ action: 'resolve', reason: 'x' }, 'Select at least one refusal.'],
          [
            { item: digest, action: 'delete' },
            'Choose Resubmit selected or Mark selected resolved.',
          ],
          [
            { item: digest, action: 'resolve', reason: ' ' },
            'Give a reason, up to 1000 characters',
          ],
        ] as const;
        for (const [form, problem] of cases) {
          const answer = await routes.post('/refusals/selected', form);
          expect(answer.status).toBe(422);
          expect(answer.text).toContain(problem);
          expect(answer.text).toContain('Nothing was sent or written.');
        }
        const noReceiver = consoleRoutes(console, { receiver: false });
        const answer = await noReceiver.post('/refusals/selected', {
          item: digest,
          action: 'resubmit',
        });
        expect(answer.status).toBe(422);
        expect(answer.text).toContain(
          'Resubmit needs a receiver, and this console was given none.',
        );
        expect((await routes.get(`/refusals/${digest}`)).text).toMatch(/badge open">open</);
      });

      it('asks first, then marks each resolved and reports the one that is not kept', async () => {
        const routes = consoleRoutes(console);
        const digest = await digestOf(routes, await refused(console));
        const gone = 'f'.repeat(64);
        const form = { item: [digest, gone], action: 'resolve', reason: 'TICKET-9' };

        const asked = await routes.post('/refusals/selected', form);
        expect(asked.text).toContain('Mark 2 refusals resolved?');
        expect(asked.text).toContain('<input type="hidden" name="confirmed" value="1">');
        expect((await routes.get(`/refusals/${digest}`)).text).toMatch(/badge open">open</);

        const done = await routes.post('/refusals/selected', { ...form, confirmed: '1' });
        expect(done.text).toContain('1 of 2 done; 1 failed and were left as they were.');
        expect(done.text).toContain('Marked resolved by local:tester: TICKET-9');
        expect(done.text).toContain(`No kept refusal ${gone}`);
        expect((await routes.get(`/refusals/${digest}`)).text).toContain('TICKET-9');
      });

      it('marks none when who the operator is cannot be established', async () => {
        const digest = await digestOf(consoleRoutes(console), await refused(console));
        const routes = consoleRoutes(console, { operator: noIdentity });
        const done = await routes.post('/refusals/selected', {
          item: digest,
          action: 'resolve',
          reason: 'x',
          confirmed: '1',
        });
        expect(done.text).toContain('Not marked: who you are could not be established.');
        expect((await routes.get(`/refusals/${digest}`)).text).toMatch(/badge open">open</);
      });

      it('resubmits one after confirming, and reports a receiver that does not answer', async () => {
        const digest = await digestOf(consoleRoutes(console), await refused(console));
        const asked = await consoleRoutes(console).post('/refusals/selected', {
          item: digest,
          action: 'resubmit',
        });
        expect(asked.text).toContain(`Resubmit 1 refusal to ${console.receiverUrl}?`);

        const url = await closedPortUrl();
        const routes = consoleRoutes(console, { receiver: { url, apiKey: specKey } });
        const done = await routes.post('/refusals/selected', {
          item: digest,
          action: 'resubmit',
          confirmed: '1',
        });
        expect(done.text).toContain('0 of 1 done; 1 failed');
        expect(done.text).toContain(`connection refused by ${new URL(url).host}`);
      });
    });

    it('refuses every action with 403 on a read-only console, before reading anything', async () => {
      const routes = consoleRoutes(console, { allowActions: false, mode: 'deployed' });
      for (const path of [
        '/refusals/selected',
        `/refusals/${'0'.repeat(64)}/resolve`,
        `/refusals/${'0'.repeat(64)}/resubmit`,
      ]) {
        const answer = await routes.post(path, { reason: 'x' });
        expect(answer.status).toBe(403);
        expect(answer.text).toMatch(/^Refused: this console is read-only; nothing was written/);
      }
      const list = await routes.get('/refusals?state=all');
      expect(digestsIn(list.text).length).toBeGreaterThan(0);
      expect(list.text).not.toContain('type="checkbox"');
    });
  });
});
