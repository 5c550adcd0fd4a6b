import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReceivedEvent {
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  readonly body: string;
  /** The status this consumer answered with. */
  readonly answered: number;
}

/**
 * The integrator's downstream consumer, as small as it gets: it keeps every POST it is sent and
 * answers `status` (set it to 503 to play a consumer that is failing).
 */
export async function startEventConsumer() {
  const received: ReceivedEvent[] = [];
  const state = { status: 204 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answered = state.status;
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered,
      });
      response.writeHead(answered).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    received,
    /** The bodies it answered 2xx to, parsed. */
    accepted(): Record<string, unknown>[] {
      return received
        .filter((event) => event.answered < 300)
        .map((event) => JSON.parse(event.body) as Record<string, unknown>);
    },
    answer(status: number): void {
      state.status = status;
    },
    /** Resolves once `count` POSTs have arrived (any answer), or fails after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `Expected ${count} event POSTs, got ${received.length} in ${timeoutMs} ms`,
          );
        }
        await sleep(20);
      }
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export type EventConsumer = Awaited<ReturnType<typeof startEventConsumer>>;
