import { once } from 'node:events';
import { createServer } from 'node:net';

/** A loopback TCP port that is free right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('No TCP port assigned');
  return address.port;
}

/**
 * Rejects with the error `listen` gives (EADDRINUSE, EADDRNOTAVAIL) when `host:port` cannot be
 * bound now: checked before a command creates anything, so a busy port leaves no trace behind.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  const server = createServer();
  server.listen(port, host);
  await once(server, 'listening');
  server.close();
  await once(server, 'close');
}
