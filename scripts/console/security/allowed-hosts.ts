import type { MiddlewareHandler } from 'hono';

/**
 * The `Host` values the console answers: its loopback names with its own port. A page elsewhere
 * that points its own name at 127.0.0.1 (DNS rebinding) sends its own name as `Host` and gets a
 * refusal, so it can never read the console as if it were same-origin.
 */
export function allowedHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function hostAllowList(hosts: () => ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host')?.toLowerCase();
    if (host === undefined || !hosts().has(host)) {
      return c.text('This console answers only on its loopback address.', 421);
    }
    await next();
  };
}
