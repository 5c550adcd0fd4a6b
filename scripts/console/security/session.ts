import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export const sessionCookie = 'console_session';
/** Long enough for a working day; the console's process ends sooner in practice. */
const sessionSeconds = 12 * 60 * 60;

interface Session {
  /** Sent back in every form: a cross-site page cannot read it, so it cannot forge a POST. */
  readonly csrfToken: string;
  readonly expiresAt: number;
}

export type SessionVariables = { session: Session };

const secret = () => randomBytes(32).toString('base64url');
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The console's sign-in: a one-time token printed in the console's URL, traded on first use for
 * an HttpOnly, SameSite=Strict session cookie. Anyone else on the machine can reach the port, but
 * without the token (kept in the owner's terminal) they get no data.
 */
export class ConsoleSessions {
  readonly #pending = new Set<string>();
  readonly #sessions = new Map<string, Session>();

  /** A new sign-in token, good once. */
  newToken(): string {
    const token = secret();
    this.#pending.add(token);
    return token;
  }

  /** GET /login?token=…: sets the cookie and goes to the page asked for, or refuses. */
  login(c: Context): Response {
    const offered = c.req.query('token') ?? '';
    const match = [...this.#pending].find((token) => sameSecret(token, offered));
    if (match === undefined) {
      return c.text(
        'This sign-in link is not valid (each link works once). Restart the console for a new one.',
        403,
      );
    }
    this.#pending.delete(match);
    const id = secret();
    this.#sessions.set(id, { csrfToken: secret(), expiresAt: Date.now() + sessionSeconds * 1000 });
    setCookie(c, sessionCookie, id, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: sessionSeconds,
    });
    return c.redirect('/', 303);
  }

  /** Every other route: the session, or 401 with no data. */
  required(): MiddlewareHandler<{ Variables: SessionVariables }> {
    return async (c, next) => {
      const id = getCookie(c, sessionCookie);
      const session = id === undefined ? undefined : this.#sessions.get(id);
      if (session === undefined || session.expiresAt < Date.now()) {
        return c.text(
          'Sign in with the console URL that npm start or npm run console printed.',
          401,
        );
      }
      c.set('session', session);
      await next();
    };
  }
}

/** Constant time, whatever the lengths. */
export function sameSecret(expected: string, offered: string): boolean {
  return timingSafeEqual(digest(expected), digest(offered));
}
