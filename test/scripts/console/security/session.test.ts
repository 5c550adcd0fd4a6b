import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ConsoleSessions, sessionCookie } from '../../../../scripts/console/security/session.js';

/** The sign-in on its own: a link without a token is refused and spends no pending one. */
function signIn() {
  const sessions = new ConsoleSessions();
  const app = new Hono();
  app.get('/login', (c) => sessions.login(c));
  return { app, token: sessions.newToken() };
}

describe('ConsoleSessions.login', () => {
  it.each([
    ['no token', '/login'],
    ['an empty token', '/login?token='],
  ])('refuses %s with 403 and no cookie, and the pending token still works', async (_, path) => {
    const { app, token } = signIn();

    const refused = await app.request(path);

    expect(refused.status).toBe(403);
    expect(refused.headers.get('set-cookie')).toBeNull();
    const owner = await app.request(`/login?token=${token}`);
    expect(owner.status).toBe(303);
    expect(owner.headers.get('set-cookie')).toContain(`${sessionCookie}=`);
  });
});
