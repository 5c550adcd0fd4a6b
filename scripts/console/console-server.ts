import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createConsoleApp } from './console-app.js';
import type { ConsoleContext } from './console-context.js';
import { allowedHosts } from './security/allowed-hosts.js';
import { secretHostName } from './security/secret-host-name.js';
import { ConsoleSessions } from './security/session.js';

export interface ConsoleServerOptions extends ConsoleContext {
  /** Default 0: any free port. The console binds loopback only, whatever else is configured. */
  readonly port?: number;
}

export type ConsoleServer = Awaited<ReturnType<typeof startConsole>>;

/**
 * Serves the console on 127.0.0.1, under a name of its own (`origin`: http://<128 random
 * bits>.localhost:<port>) so its cookie reaches no other loopback port. `url` signs in once (its
 * token is spent on first use); `signInUrl()` makes another, for a second browser or a test.
 */
export async function startConsole(options: ConsoleServerOptions) {
  const { port: wanted = 0, ...context } = options;
  const sessions = new ConsoleSessions();
  let hosts: ReadonlySet<string> = new Set();
  const app = createConsoleApp({ context, sessions, hosts: () => hosts });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: wanted }, () =>
      resolve(started),
    );
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const name = secretHostName();
  hosts = allowedHosts(name, port);
  const origin = `http://${name}:${port}`;
  const signInUrl = () => `${origin}/login?token=${sessions.newToken()}`;
  return {
    origin,
    port,
    url: signInUrl(),
    signInUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive browser connections would hold close() open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
