import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { sameOriginPost } from '../../../../scripts/console/security/same-origin-post.js';
import type { SessionVariables } from '../../../../scripts/console/security/session.js';

/**
 * The change guard on its own, in front of one route that counts what reaches it: a refusal is
 * its status and no change. The whole console (sign-in, Host check, a browser) is
 * console-security.test.ts's.
 */
const host = '127.0.0.1:4000';
const origin = `http://${host}`;
const csrfToken = 'the-session-csrf-token';

function guarded() {
  const app = new Hono<{ Variables: SessionVariables }>();
  let changes = 0;
  app.use(async (c, next) => {
    c.set('session', { csrfToken, expiresAt: Date.now() + 60_000 });
    await next();
  });
  app.use(sameOriginPost(() => new Set([host])));
  app.all('/change', (c) => {
    changes += 1;
    return c.text('changed');
  });
  return { app, changes: () => changes };
}

describe('sameOriginPost', () => {
  it.each(['PUT', 'DELETE', 'PATCH'])('answers %s with 405 and changes nothing', async (method) => {
    const { app, changes } = guarded();

    const answer = await app.request('/change', {
      method,
      headers: { origin, 'x-csrf-token': csrfToken },
    });

    expect(answer.status).toBe(405);
    expect(changes()).toBe(0);
  });

  it('refuses a POST that carries no token and no content type: 403, nothing changed', async () => {
    const { app, changes } = guarded();

    const answer = await app.request('/change', { method: 'POST', headers: { origin } });

    expect(answer.status).toBe(403);
    expect(await answer.text()).toMatch(/stale or forged/);
    expect(changes()).toBe(0);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['multipart', 'multipart/form-data; boundary=x'],
  ])('does not read the token from a %s body: 403, nothing changed', async (_, type) => {
    const { app, changes } = guarded();

    const answer = await app.request('/change', {
      method: 'POST',
      headers: { origin, 'content-type': type },
      body: `_csrf=${csrfToken}`,
    });

    expect(answer.status).toBe(403);
    expect(changes()).toBe(0);
  });

  it('lets the same POST through with the token in an urlencoded form (the guard is not shut)', async () => {
    const { app, changes } = guarded();

    const answer = await app.request('/change', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${csrfToken}`,
    });

    expect(answer.status).toBe(200);
    expect(changes()).toBe(1);
  });
});
