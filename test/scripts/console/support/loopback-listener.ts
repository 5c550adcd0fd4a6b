import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Any other program listening on a loopback port, as a local attacker's would: it records the
 * Cookie header of every request it gets. `/` reloads itself once (the second hop of the attack:
 * the reload is same-site, so it carries the SameSite=Strict cookies of its host name);
 * `/set-cookie` sets a cookie exactly as the console sets its session, to show what a host-wide
 * cookie of another port looks like when it arrives.
 */
export async function startLoopbackListener() {
  const cookies: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') {
      response.writeHead(404).end();
      return;
    }
    cookies.push(request.headers.cookie ?? '');
    if (path === '/set-cookie') {
      response.writeHead(200, {
        'set-cookie': 'other_port_session=set-by-another-port; HttpOnly; SameSite=Strict; Path=/',
        'content-type': 'text/plain',
      });
      response.end('set');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>loading</title><script>
      if (sessionStorage.getItem('reloaded') === null) {
        sessionStorage.setItem('reloaded', 'yes');
        location.reload();
      } else {
        document.title = 'reloaded';
      }</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    /** The Cookie header of each request so far, '' when it had none, in order. */
    cookies: (): readonly string[] => cookies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
