import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';

/** Binds `host:port` and lets go at once; rejects with the error `listen` gives. */
async function bindAndRelease(host: string, port: number): Promise<AddressInfo | string | null> {
  const server = createServer();
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  return address;
}

/** A loopback TCP port that is free right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const address = await bindAndRelease('127.0.0.1', 0);
  if (address === null || typeof address === 'string') throw new Error('No TCP port assigned');
  return address.port;
}

/**
 * Rejects with the error `listen` gives (EADDRINUSE, EADDRNOTAVAIL) when `host:port` cannot be
 * bound now: checked before a command creates anything, so a busy port leaves no trace behind.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  await bindAndRelease(host, port);
}
