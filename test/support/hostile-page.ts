import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Another site's server on this machine: answers each path with the HTML given (no CSP, inline
 * scripts allowed), as a page the operator happens to visit would.
 */
export async function startHostileSite(pages: Record<string, (port: number) => string>) {
  const server = createServer((request, response) => {
    const page = pages[new URL(request.url ?? '/', 'http://x').pathname];
    if (page === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page((server.address() as AddressInfo).port));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
