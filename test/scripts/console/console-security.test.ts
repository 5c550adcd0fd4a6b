import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchChromium,
  startTestConsole,
  type TestConsole,
} from '../../support/console-browser.js';
import { consoleRequest } from '../../support/console-request.js';
import { forEachEngine } from '../../support/engines.js';
import { transaction } from '../../support/fixtures.js';
import { type GuardedConsole, startGuardedConsole } from '../../support/guarded-console.js';
import { startHostileSite } from '../../support/hostile-page.js';
import { cookieOf, type RawAnswer } from '../../support/raw-http.js';

/** Names Chromium resolves to 127.0.0.1: another site's name, and a rebinding attacker's. */
const hostile = 'hostile.example';
const rebound = 'rebind.example';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium([
    `--host-resolver-rules=MAP ${hostile} 127.0.0.1, MAP ${rebound} 127.0.0.1`,
  ]);
});
afterAll(() => browser?.close());

forEachEngine((engine) => {
  describe('the console, against a client without the token or from another site', () => {
    let console: TestConsole;
    let guarded: GuardedConsole;
    // Recognisable in any body that leaks it.
    const secret = transaction({ username: 'leak.canary', message: 'canary-message' });
    const reference = String(secret.reference);

    beforeAll(async () => {
      console = await startTestConsole(engine);
      expect(await console.deliver(secret)).toBe(204);
      guarded = await startGuardedConsole({
        tables: {
          client: console.table.client,
          tableName: console.table.tableName,
          refusalsTableName: console.refusals.tableName,
          description: 'guarded test console',
        },
        mode: 'local',
        allowActions: true,
      });
    });
    afterAll(async () => {
      await guarded?.close();
      await console?.close();
    });

    const leaks = (answer: RawAnswer) =>
      answer.body.includes(reference) || answer.body.includes('leak.canary');

    /** A signed-in cookie and the page's CSRF token, as the console's own page has them. */
    async function signIn(url: string) {
      const login = await consoleRequest(url);
      const cookie = cookieOf(login) as string;
      const origin = new URL(url).origin;
      const page = await consoleRequest(`${origin}/transactions`, { headers: { cookie } });
      const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.body)?.[1] as string;
      return { login, cookie, csrf, page };
    }

    it('shows no data without the token: 401 and no table content, on every route', async () => {
      const { origin } = console.server;
      for (const path of ['/', '/transactions', `/transactions/${reference}`, '/conflicts']) {
        const answer = await consoleRequest(`${origin}${path}`);
        expect(answer.status, path).toBe(401);
        expect(leaks(answer), path).toBe(false);
      }
      // A made-up session cookie is no session.
      const forged = await consoleRequest(`${origin}/transactions`, {
        headers: { cookie: 'console_session=made-up' },
      });
      expect(forged.status).toBe(401);
      expect(leaks(forged)).toBe(false);
    });

    it('lets the sign-in link work once: the second use is refused with 403 and no cookie', async () => {
      const url = console.server.signInUrl();
      const { login, page } = await signIn(url);
      expect(login.status).toBe(303);
      expect(page.status).toBe(200);
      expect(leaks(page)).toBe(true); // the signed-in page does show the data

      const again = await consoleRequest(url);
      expect(again.status).toBe(403);
      expect(cookieOf(again)).toBeUndefined();
      const guessed = await consoleRequest(`${console.server.origin}/login?token=guess`);
      expect(guessed.status).toBe(403);
    });

    it('refuses a Host it does not own (DNS rebinding), even with a valid session or token', async () => {
      const { cookie } = await signIn(console.server.signInUrl());
      const { port, origin } = console.server;
      const loopback = [
        `127.0.0.1:${port}`,
        `127.0.0.1:${port + 1}`,
        `localhost:${port}`,
        'localhost',
      ];
      for (const host of [`evil.example:${port}`, ...loopback]) {
        const answer = await consoleRequest(`${origin}/transactions`, {
          headers: { host, cookie },
        });
        expect(answer.status, host).toBe(421);
        expect(leaks(answer), host).toBe(false);
      }
      // A token offered under a foreign Host is not spent: the owner's link still works.
      const url = new URL(console.server.signInUrl());
      const rebinding = await consoleRequest(url.href, { headers: { host: `${rebound}:${port}` } });
      expect(rebinding.status).toBe(421);
      expect((await consoleRequest(url.href)).status).toBe(303);
    });

    it('refuses a rebound name in a real browser: Chromium resolving it to 127.0.0.1 gets 421', async () => {
      const context = await signedInContext(console.server.signInUrl());
      const page = await context.newPage();
      const answer = await page.goto(`http://${rebound}:${console.server.port}/transactions`);
      expect(answer?.status()).toBe(421);
      expect(await page.content()).not.toContain(reference);
      await context.close();
    });

    it('refuses a POST with a foreign Origin, a cross-site Sec-Fetch-Site or no CSRF token', async () => {
      const { cookie, csrf } = await signIn(guarded.signInUrl());
      const own = guarded.origin;
      const changed = guarded.changes();
      const post = (headers: Record<string, string>, body: string, query = '') =>
        consoleRequest(`${own}/test/change${query}`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body,
        });
      const refused = [
        ['a foreign Origin', { origin: 'http://evil.example' }, `_csrf=${csrf}`],
        [
          'another port',
          { origin: `http://${new URL(own).hostname}:${guarded.port + 1}` },
          `_csrf=${csrf}`,
        ],
        [
          'the bare loopback address',
          { origin: `http://127.0.0.1:${guarded.port}` },
          `_csrf=${csrf}`,
        ],
        ['no Origin', {}, `_csrf=${csrf}`],
        [
          'Sec-Fetch-Site cross-site',
          { origin: own, 'sec-fetch-site': 'cross-site' },
          `_csrf=${csrf}`,
        ],
        [
          'Sec-Fetch-Site same-site',
          { origin: own, 'sec-fetch-site': 'same-site' },
          `_csrf=${csrf}`,
        ],
        ['no CSRF token', { origin: own }, 'note=hello'],
        ['a wrong CSRF token', { origin: own }, '_csrf=forged'],
        ['the token in a wrong header', { origin: own, 'x-csrf-token': 'forged' }, ''],
      ] as const;
      for (const [why, headers, body] of refused) {
        const answer = await post(headers, body);
        expect(answer.status, why).toBe(403);
      }
      expect(guarded.changes()).toBe(changed);

      // The same POST from the console's own page goes through: the checks refuse only forgeries.
      const accepted = await post(
        { origin: own, 'sec-fetch-site': 'same-origin' },
        `_csrf=${csrf}`,
      );
      expect(accepted.status).toBe(200);
      expect(guarded.changes()).toBe(changed + 1);
      const byHeader = await post({ origin: own, 'x-csrf-token': csrf }, '');
      expect(byHeader.status).toBe(200);
      expect(guarded.changes()).toBe(changed + 2);
      // An upload carries it in the action's query string (csrfAction): forged there, refused.
      expect((await post({ origin: own }, '', '?_csrf=forged')).status).toBe(403);
      expect((await post({ origin: own }, '', `?_csrf=${csrf}`)).status).toBe(200);
      expect(guarded.changes()).toBe(changed + 3);
    });

    it('answers with CSP, no-store, DENY framing and an HttpOnly SameSite=Strict cookie', async () => {
      const { login, page, cookie } = await signIn(console.server.signInUrl());
      const setCookie = String(login.headers['set-cookie']);
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Strict/);
      // Host-only: a Domain attribute would send it to every name under it.
      expect(setCookie).not.toMatch(/Domain=/i);
      const refused = await consoleRequest(`${console.server.origin}/transactions`);
      const asset = await consoleRequest(`${console.server.origin}/assets/console.css`, {
        headers: { cookie },
      });
      for (const [what, answer] of [
        ['page', page],
        ['401', refused],
        ['login', login],
        ['asset', asset],
      ] as const) {
        const csp = String(answer.headers['content-security-policy']);
        expect(csp, what).toMatch(/default-src 'self'/);
        expect(csp, what).toMatch(/frame-ancestors 'none'/);
        expect(answer.headers['cache-control'], what).toBe('no-store');
        expect(answer.headers['x-frame-options'], what).toBe('DENY');
      }
    });

    describe('a page of another site, open in the signed-in browser', () => {
      let site: Awaited<ReturnType<typeof startHostileSite>>;
      beforeAll(async () => {
        const target = guarded.origin;
        site = await startHostileSite({
          '/read': () => `<!doctype html><title>read</title><script>
            (async () => {
              const out = {};
              try {
                const r = await fetch('${target}/transactions', { credentials: 'include' });
                out.read = await r.text();
              } catch (error) { out.read = 'blocked: ' + error.name; }
              try {
                await fetch('${target}/test/change', { method: 'POST', mode: 'no-cors',
                  credentials: 'include', body: new URLSearchParams({ _csrf: 'guess' }) });
                out.post = 'sent';
              } catch (error) { out.post = 'blocked: ' + error.name; }
              window.result = out;
            })();</script>`,
          '/form': () => `<!doctype html><title>form</title>
            <form method="post" action="${target}/test/change">
            <input name="_csrf" value="guess"><input name="note" value="hi"></form>
            <script>document.forms[0].submit();</script>`,
          '/frame': () => `<!doctype html><title>frame</title>
            <iframe src="${target}/transactions" width="800" height="600"></iframe>`,
        });
      });
      afterAll(() => site?.close());

      // The console's own name on another port is same-site but cross-origin: the Strict cookie
      // goes along, so the Origin check refuses it (403). 127.0.0.1 is another site than the
      // console's name, as is any other name: no cookie (401).
      const origins = [
        {
          name: "the console's name on another port",
          at: () => `http://${new URL(guarded.origin).hostname}:${site.port}`,
          status: 403,
        },
        {
          name: '127.0.0.1 on another port',
          at: () => `http://127.0.0.1:${site.port}`,
          status: 401,
        },
        { name: 'another name', at: () => `http://${hostile}:${site.port}`, status: 401 },
      ] as const;

      it.each(origins)(
        'from $name, fetch() reads nothing and its POST changes nothing',
        async ({ at, status }) => {
          const context = await signedInContext(guarded.signInUrl());
          const page = await context.newPage();
          const [before, changed] = [guarded.answered().length, guarded.changes()];
          await page.goto(`${at()}/read`);
          // The hostile page's own script reports what it could read.
          const handle = await page.waitForFunction('window.result');
          const { read } = (await handle.jsonValue()) as { read: string };
          expect(read).toMatch(/^blocked: TypeError/);
          expect(read).not.toContain(reference);
          // Its POST did reach the console (no-cors sends it), which refused it.
          expect(guarded.answered().slice(before)).toEqual([status]);
          expect(guarded.changes()).toBe(changed);
          await context.close();
        },
      );

      it.each(origins)(
        'from $name, a form POST is refused ($status) and changes nothing',
        async ({ at, status }) => {
          const context = await signedInContext(guarded.signInUrl());
          const page = await context.newPage();
          const changed = guarded.changes();
          const answer = page.waitForResponse((response) =>
            response.url().endsWith('/test/change'),
          );
          await page.goto(`${at()}/form`);
          expect((await answer).status()).toBe(status);
          expect(guarded.changes()).toBe(changed);
          await context.close();
        },
      );

      it('cannot frame the console: Chromium blocks it and the frame shows none of it', async () => {
        const context = await signedInContext(guarded.signInUrl());
        const page = await context.newPage();
        const framed = page.waitForResponse((response) => response.url().endsWith('/transactions'));
        // From its own name on another port, so that the session cookie does go along.
        await page.goto(`http://${new URL(guarded.origin).hostname}:${site.port}/frame`);
        // The console did answer (the session cookie went along), and the browser refused to show it.
        expect((await framed).status()).toBe(200);
        const frame = page.frames().find((f) => f !== page.mainFrame());
        await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
        const shown = await frame?.evaluate<string>('document.body?.innerText ?? ""');
        expect(shown).not.toContain(reference);
        await context.close();
      });
    });
  });
});

/** A browser profile signed in to the console through `url`, as the operator's is. */
async function signedInContext(url: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const answer = await page.goto(url);
  expect(answer?.status()).toBe(200);
  await page.close();
  return context;
}
