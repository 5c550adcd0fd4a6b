import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createConsoleApp } from '../../scripts/console/console-app.js';
import type { ConsoleContext } from '../../scripts/console/console-context.js';
import { allowedHosts } from '../../scripts/console/security/allowed-hosts.js';
import { secretHostName } from '../../scripts/console/security/secret-host-name.js';
import { ConsoleSessions } from '../../scripts/console/security/session.js';

/** The console app with one harmless change route, and how many changes got through. */
export interface GuardedConsole {
  readonly origin: string;
  readonly port: number;
  signInUrl(): string;
  /** POST /test/change calls that reached the route, past every check. */
  changes(): number;
  /** The status of every request for /test/change, refused or not, in order. */
  answered(): readonly number[];
  close(): Promise<void>;
}

/**
 * The console as startConsole builds it (createConsoleApp: the same middleware in the same
 * order), plus `POST /test/change`, registered after the views as a view's own POST would be.
 * It changes a counter only, so the tests can tell "refused" from "refused and nothing done".
 */
export async function startGuardedConsole(context: ConsoleContext): Promise<GuardedConsole> {
  const sessions = new ConsoleSessions();
  let hosts: ReadonlySet<string> = new Set();
  const app = createConsoleApp({ context, sessions, hosts: () => hosts });
  let changes = 0;
  app.post('/test/change', (c) => {
    changes += 1;
    return c.text('changed');
  });
  const answered: number[] = [];
  // Outside the app: sees the requests the app refuses too.
  const fetch = async (request: Request, env: unknown) => {
    const response = await app.fetch(request, env);
    if (new URL(request.url).pathname === '/test/change') answered.push(response.status);
    return response;
  };
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const name = secretHostName();
  hosts = allowedHosts(name, port);
  const origin = `http://${name}:${port}`;
  return {
    origin,
    port,
    signInUrl: () => `${origin}/login?token=${sessions.newToken()}`,
    changes: () => changes,
    answered: () => answered,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
