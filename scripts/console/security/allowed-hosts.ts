import type { MiddlewareHandler } from 'hono';

/**
 * The one `Host` the console answers: its secret name (secretHostName) with its own port. Not
 * 127.0.0.1 nor localhost: a session there would ride a cookie every other loopback port gets.
 * A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) sends its own name as
 * `Host`, and a session cookie offered on another port or name is refused the same way.
 */
export function allowedHosts(name: string, port: number): ReadonlySet<string> {
  return new Set([`${name}:${port}`]);
}

export function hostAllowList(hosts: () => ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host')?.toLowerCase();
    if (host === undefined || !hosts().has(host)) {
      // The name is as secret as the sign-in token: never say it to whoever asks.
      return c.text(
        'This console answers only at the address of the Console: link its terminal printed.',
        421,
      );
    }
    await next();
  };
}
