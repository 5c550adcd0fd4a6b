import { EventEmitter } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { limitConnections } from '../../../../scripts/local/engine/connection-limits.js';

/**
 * The bound on its own, with sockets whose address the test chooses, including none: a peer that
 * resets before it is accepted leaves Node no address to report, and must not slip past the bound.
 * Real connections from several loopback addresses are signed-requests-only.test.ts's.
 */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string | undefined) {
    super();
  }
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

function limited(perAddress: number, total: number) {
  const server = createServer();
  limitConnections(server, { perAddress, total });
  return (address: string | undefined) => {
    const socket = new FakeSocket(address);
    server.emit('connection', socket as unknown as Socket);
    return socket;
  };
}

describe('limitConnections', () => {
  it('counts connections with no address as one address, bounded like any other', () => {
    const accept = limited(2, 10);

    const [first, second, third] = [accept(undefined), accept(undefined), accept(undefined)];

    expect([first.destroyed, second.destroyed, third.destroyed]).toEqual([false, false, true]);
    expect(accept('127.0.0.1').destroyed).toBe(false);
  });

  it("frees an address's place when one of its connections closes, and only one", () => {
    const accept = limited(2, 10);
    const [first] = [accept('127.0.0.1'), accept('127.0.0.1')];

    first.destroy();

    expect(accept('127.0.0.1').destroyed).toBe(false);
    expect(accept('127.0.0.1').destroyed).toBe(true);
  });

  it('frees a place in the total when a connection closes', () => {
    const accept = limited(5, 2);
    const [first] = [accept('127.0.0.2'), accept('127.0.0.3')];
    expect(accept('127.0.0.4').destroyed).toBe(true);

    first.destroy();

    expect(accept('127.0.0.4').destroyed).toBe(false);
  });
});
