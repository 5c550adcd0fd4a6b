import { randomBytes } from 'node:crypto';

/**
 * The console's own host name for one run: 128 random bits as 32 hex digits, one DNS label under
 * `.localhost`. Chromium, Firefox and curl resolve any `*.localhost` name to loopback themselves
 * (RFC 6761), so it reaches the console on 127.0.0.1 with no DNS and no hosts file.
 *
 * Why a name: cookies are scoped by host name, not by port, so under 127.0.0.1 the session cookie
 * went to every other program listening on 127.0.0.1. A name that only the owner's terminal
 * knows cannot be visited on another port by someone else's page, so the browser never sends the
 * cookie anywhere but here.
 */
export function secretHostName(): string {
  return `${randomBytes(16).toString('hex')}.localhost`;
}
