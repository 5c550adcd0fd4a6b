import type { MiddlewareHandler } from 'hono';
import { type SessionVariables, sameSecret } from './session.js';

/** The form field every POST carries (see `csrfField`). */
export const csrfFieldName = '_csrf';

/**
 * Every change is a POST that proves it came from the console's own page: `Origin` is ours (a
 * browser always sends it on POST), `Sec-Fetch-Site`, when sent, says same-origin, and the form
 * carries the session's CSRF token. Any one failing refuses with 403 and changes nothing.
 */
export function sameOriginPost(
  hosts: () => ReadonlySet<string>,
): MiddlewareHandler<{ Variables: SessionVariables }> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (c.req.method !== 'POST') return c.text('Only GET and POST are answered.', 405);
    const origin = c.req.header('origin');
    // The console serves plain http on loopback, so its origins are `http://` + an allowed Host.
    if (origin === undefined || !origin.startsWith('http://') || !hosts().has(origin.slice(7))) {
      return c.text('Refused: this request did not come from the console page.', 403);
    }
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin') {
      return c.text('Refused: this request did not come from the console page.', 403);
    }
    // One await around the whole chain: an await reached on some paths only makes v8's coverage
    // count the branch after it as never taken, and this guard is gated at 100% of branches.
    const token = await (c.req.header('x-csrf-token') ??
      c.req.query(csrfFieldName) ??
      formToken(c.req.raw));
    if (token === undefined || !sameSecret(c.get('session').csrfToken, token)) {
      return c.text('Refused: the form is stale or forged. Reload the page and try again.', 403);
    }
    await next();
  };
}

/**
 * The token of a small urlencoded form, read from a copy so the route still reads the body. An
 * upload (multipart) carries it in the header or the action's query string instead: reading a
 * large file here would hold it in memory twice.
 */
async function formToken(request: Request): Promise<string | undefined> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded/i.test(type)) return undefined;
  const value = new URLSearchParams(await request.clone().text()).get(csrfFieldName);
  return value ?? undefined;
}
