import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { serveAssets } from './assets.js';
import type { ConsoleContext, ConsoleEnv } from './console-context.js';
import { hostAllowList } from './security/allowed-hosts.js';
import { sameOriginPost } from './security/same-origin-post.js';
import type { ConsoleSessions } from './security/session.js';
import { consoleViews } from './views/console-views.js';

export interface ConsoleAppOptions {
  readonly context: ConsoleContext;
  readonly sessions: ConsoleSessions;
  /** The `Host` values answered, known once the port is bound. */
  readonly hosts: () => ReadonlySet<string>;
}

/**
 * The console as a fetch handler: every request passes the Host allow-list and gets the security
 * headers; assets and the sign-in are open, everything else needs the session cookie, and every
 * POST must come from the console's own page.
 */
export function createConsoleApp({ context, sessions, hosts }: ConsoleAppOptions) {
  const app = new Hono<ConsoleEnv>();
  app.use(hostAllowList(hosts));
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
      },
      // The CSP's frame-ancestors decides in current browsers; DENY says the same to older ones.
      xFrameOptions: 'DENY',
      // Not `no-referrer`: under it Chromium sends `Origin: null` with a plain form POST, which
      // the same-origin check must refuse. `same-origin` still sends nothing to other sites.
      referrerPolicy: 'same-origin',
      crossOriginResourcePolicy: 'same-origin',
      crossOriginOpenerPolicy: 'same-origin',
    }),
  );
  app.use(async (c, next) => {
    await next();
    // Payment data must not stay in a shared machine's browser cache.
    c.header('cache-control', 'no-store');
  });
  serveAssets(app as unknown as Hono<never>);
  app.get('/login', (c) => sessions.login(c));
  app.use(sessions.required());
  app.use(sameOriginPost(hosts));
  app.get('/', (c) => c.redirect('/transactions', 303));
  for (const view of consoleViews) view(app, context);
  app.notFound((c) => c.text('Not found.', 404));
  return app;
}
