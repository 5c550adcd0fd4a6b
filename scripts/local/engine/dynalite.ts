/**
 * Starts dynalite (DynamoDB on LevelDB, pure Node, in this process) on a free loopback port: local
 * mode's embedded engine (answering only requests signed with its credentials), and the tests'
 * first engine (open, as DynamoDB Local is).
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { ConnectionLimits } from './connection-limits.js';
import type { EngineCredentials } from './engine-credentials.js';
import type { RunningEngine } from './local-engine.js';
import { signedRequestsOnly } from './signed-requests-only.js';

// dynalite ships no types; createRequire lets us type the one function we call.
const dynalite = createRequire(import.meta.url)('dynalite') as (options: {
  path?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}) => Server;

/**
 * Keeps the data in the LevelDB folder `path` (which one process at a time may open: see
 * data-lock.ts), or in memory without one. With `credentials`, every request must be signed
 * with them (local mode); without, any request is served (tests and benchmarks).
 */
export async function startDynalite(
  path?: string,
  options: {
    readonly credentials?: EngineCredentials;
    /** With `credentials`: other bounds than engineConnectionLimits (the tests' smaller ones). */
    readonly connectionLimits?: ConnectionLimits;
  } = {},
): Promise<RunningEngine> {
  // Tables become ACTIVE at once instead of after dynalite's default 500 ms.
  const server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(path ? { path } : {}),
  });
  if (options.credentials) {
    signedRequestsOnly(server, options.credentials, options.connectionLimits);
  }
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= new Promise<void>((done, fail) => {
      // dynalite's close also closes the LevelDB store (and flushes it when on disk).
      server.close((error) => (error ? fail(error) : done()));
      server.closeAllConnections(); // kept-alive client sockets would hold close() open
    });
    return stopped;
  };
  return { endpoint: `http://127.0.0.1:${port}`, stop };
}
