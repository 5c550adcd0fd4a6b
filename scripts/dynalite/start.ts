/**
 * Starts dynalite (DynamoDB on LevelDB, pure Node, in this process) on a free port. Used by the
 * tests' global setup and by local mode.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { RunningEngine } from '../dynamodb-local/start.js';

export type { RunningEngine };

export interface DynaliteOptions {
  /** Keep the data in a LevelDB folder here; in memory by default. */
  readonly path?: string;
  /** Port to listen on; a free one by default. */
  readonly port?: number;
}

interface DynaliteServerOptions {
  path?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}

// dynalite ships no types; createRequire lets us type the one function we call.
const dynalite = createRequire(import.meta.url)('dynalite') as (
  options?: DynaliteServerOptions,
) => Server;

export async function startDynalite(options: DynaliteOptions = {}): Promise<RunningEngine> {
  const server = dynalite({
    // Tables become ACTIVE at once instead of after dynalite's default 500 ms.
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening'); // rejects on 'error' (port taken)
  const { port } = server.address() as AddressInfo;

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= new Promise<void>((done, fail) => {
      // dynalite's close also closes the LevelDB store (and flushes it when on disk).
      server.close((error) => (error ? fail(error) : done()));
      // Kept-alive client sockets would hold close() open.
      server.closeAllConnections();
    });
    return stopped;
  };
  return { endpoint: `http://127.0.0.1:${port}`, stop };
}
