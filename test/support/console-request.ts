import { type RawAnswer, rawRequest } from './raw-http.js';

/**
 * rawRequest to a console URL. The console's name is under `.localhost`, which browsers and curl
 * resolve to loopback themselves but Node's resolver (the system's) may not: connect to
 * 127.0.0.1, where the console listens, and send the URL's own host as `Host`, as a browser does.
 * A `host` in `headers` still wins, to send a foreign one.
 */
export function consoleRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  const host = target.host;
  target.hostname = '127.0.0.1';
  return rawRequest(target.href, { ...options, headers: { host, ...options.headers } });
}
