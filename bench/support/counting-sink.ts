import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a sink took in: every POST, and how many distinct envelope ids among them. */
export interface SinkCounts {
  readonly requests: number;
  readonly distinctIds: number;
  readonly bytes: number;
}

/**
 * A consumer for replay and redrive `--forward-to`: answers every POST 204 at once and counts
 * requests, body bytes and distinct `webhook-id` headers (the envelope's id), so a run is
 * checked to have delivered each event once. Bodies are counted, not parsed: the bench's own
 * CPU stays off the measured command's cores as far as it can.
 */
export async function withCountingSink<T>(
  use: (sink: {
    readonly url: string;
    /** What came in since the sink started or was last taken from; counting starts again. */
    take(): SinkCounts;
  }) => Promise<T>,
): Promise<T> {
  let requests = 0;
  let bytes = 0;
  let ids = new Set<string>();
  const server = createServer((request, response) => {
    requests += 1;
    const id = request.headers['webhook-id'];
    if (typeof id === 'string') ids.add(id);
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => response.writeHead(204).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    return await use({
      url: `http://127.0.0.1:${port}/events`,
      take: () => {
        const counts = { requests, distinctIds: ids.size, bytes };
        requests = 0;
        bytes = 0;
        ids = new Set();
        return counts;
      },
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
