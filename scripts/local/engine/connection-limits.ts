import type { Server, Socket } from 'node:net';

/** How many connections local mode's engine holds open at once. */
export interface ConnectionLimits {
  /** From one client address. */
  readonly perAddress: number;
  /**
   * From all of them: every address in 127.0.0.0/8 reaches a loopback port, so a local user
   * can take as many addresses as it likes, and only the total bounds it.
   */
  readonly total: number;
}

/**
 * Room for every local client at once: the AWS SDK opens up to 50 sockets per client, and the
 * server's handler, the console, event forwarding and a tool or two each have one. Everything
 * those clients share (127.0.0.1) fits in `perAddress`.
 */
export const engineConnectionLimits: ConnectionLimits = { perAddress: 128, total: 256 };

/**
 * Closes, as soon as it is accepted and before it sends a byte, a connection past `limits`, so
 * no client can hold more than its share of the engine's sockets and parsers open.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  const open = new Map<string, number>();
  const openFrom = (address: string) => open.get(address) ?? 0;
  let total = 0;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const fromAddress = openFrom(address);
    if (total >= limits.total || fromAddress >= limits.perAddress) {
      socket.destroy();
      return;
    }
    total += 1;
    open.set(address, fromAddress + 1);
    socket.once('close', () => {
      total -= 1;
      // This socket was counted on accept and not yet uncounted: at least 1 is open here.
      const left = openFrom(address) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
