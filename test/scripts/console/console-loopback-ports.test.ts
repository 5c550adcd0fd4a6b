import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionCookie } from '../../../scripts/console/security/session.js';
import { launchChromium } from '../../support/console-browser.js';
import { consoleRequest } from '../../support/console-request.js';
import { suiteConsole } from '../../support/console-suite.js';
import { forEachEngine } from '../../support/engines.js';
import { transaction } from '../../support/fixtures.js';
import { startHostileSite } from '../../support/hostile-page.js';
import { cookieOf } from '../../support/raw-http.js';
import { startLoopbackListener } from './support/loopback-listener.js';

/** Another site's name, which Chromium resolves to 127.0.0.1. */
const hostile = 'hostile.example';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium([`--host-resolver-rules=MAP ${hostile} 127.0.0.1`]);
});
afterAll(() => browser?.close());

/** The value of cookie `name` in a Cookie header, if it is there. */
const cookieValue = (header: string, name: string) =>
  header
    .split(/;\s*/)
    .find((pair) => pair.startsWith(`${name}=`))
    ?.slice(name.length + 1);

forEachEngine((engine) => {
  describe("the console's session, against a listener on another loopback port", () => {
    const console = suiteConsole(engine);
    const canary = transaction({ username: 'port.canary' });
    beforeAll(async () => {
      expect(await console.deliver(canary)).toBe(204);
    });

    let listener: Awaited<ReturnType<typeof startLoopbackListener>>;
    let other: Awaited<ReturnType<typeof startLoopbackListener>>;
    let site: Awaited<ReturnType<typeof startHostileSite>>;
    beforeEach(async () => {
      listener = await startLoopbackListener();
      other = await startLoopbackListener();
      site = await startHostileSite({
        '/go': () => `<!doctype html><title>go</title><script>
          location.href = new URLSearchParams(location.search).get('to');</script>`,
      });
      return async () => {
        await Promise.all([listener.close(), other.close(), site.close()]);
      };
    });

    it.each(['127.0.0.1', 'localhost'])(
      'a page of another site sends the tab to %s on another port, which reloads: no session arrives',
      async (name) => {
        const context = await browser.newContext();
        const page = await context.newPage();
        // The operator's browser: signed in to the console, and holding a cookie that another
        // loopback port set as the console sets its own (host-only, HttpOnly, SameSite=Strict).
        expect((await page.goto(console.server.signInUrl()))?.status()).toBe(200);
        expect((await page.goto(`http://${name}:${other.port}/set-cookie`))?.status()).toBe(200);

        const listenerUrl = `http://${name}:${listener.port}/`;
        await page.goto(`http://${hostile}:${site.port}/go?to=${encodeURIComponent(listenerUrl)}`);
        await page.waitForFunction("document.title === 'reloaded'");
        await context.close();

        const [first, reload] = listener.cookies();
        expect(listener.cookies()).toHaveLength(2);
        // The cross-site hop carries no Strict cookie; the reload carries those of its host name,
        // whatever port set them: the attack works, as the control cookie shows...
        expect(cookieValue(first as string, 'other_port_session')).toBeUndefined();
        expect(cookieValue(reload as string, 'other_port_session')).toBe('set-by-another-port');
        // ...and still no console session reaches the listener, on either hop.
        for (const header of listener.cookies()) {
          expect(cookieValue(header, sessionCookie)).toBeUndefined();
        }
      },
    );

    it("reads nothing with what the listener got, replayed with the console's own Host and Origin", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(console.server.signInUrl());
      await page.goto(`http://${hostile}:${site.port}/go?to=http://127.0.0.1:${listener.port}/`);
      await page.waitForFunction("document.title === 'reloaded'");
      await context.close();

      const haul = listener.cookies().join('; ');
      const answer = await consoleRequest(`${console.server.origin}/transactions`, {
        headers: { cookie: haul, origin: console.server.origin },
      });
      expect(answer.status).toBe(401);
      expect(answer.body).not.toContain('port.canary');
    });
  });

  describe('a session cookie offered under another Host or port', () => {
    const console = suiteConsole(engine);

    it('is refused (421) anywhere but the console name and port it was given on', async () => {
      const login = await consoleRequest(console.server.signInUrl());
      const cookie = cookieOf(login) as string;
      const { origin, port } = console.server;
      const { hostname } = new URL(origin);
      // The session is good where it was given...
      expect((await consoleRequest(`${origin}/`, { headers: { cookie } })).status).toBe(303);
      // ...and nowhere else, even on the console's own socket.
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `[::1]:${port}`,
        `${hostname}:${port + 1}`,
        hostname,
        `other.${hostname}:${port}`,
      ]) {
        const answer = await consoleRequest(`${origin}/transactions`, {
          headers: { host, cookie },
        });
        expect(answer.status, host).toBe(421);
      }
    });
  });
});
