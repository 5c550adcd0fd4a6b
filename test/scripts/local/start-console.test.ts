import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { callbackBody, sampleTransaction } from '../../../scripts/gateway/gateway-callback.js';
import { consoleRequest } from '../../support/console-request.js';
import { startEventConsumer } from '../../support/event-consumer.js';
import { runCommand } from '../../support/in-process-cli.js';
import {
  freePort,
  killAllServers,
  postCallback,
  runScript,
  startServer,
} from '../../support/local-cli.js';
import { cookieOf, rawRequest } from '../../support/raw-http.js';

const consoleLine = /^Console: (http:\/\/[0-9a-f]{32}\.localhost:(\d+)\/login\?token=\S+)$/m;
const key = 'console-test-key-0123456789';

/** `npm start`'s console: printed in the banner, on loopback, over local mode's own data. */
describe('npm start serves the console', () => {
  afterEach(() => killAllServers());

  it('prints a one-time Console link that shows what the receiver recorded', async () => {
    const server = await startServer(
      { PORT: '0', CALLBACK_API_KEYS: key },
      { args: ['--in-memory'] },
    );
    const url = consoleLine.exec(server.stdout())?.[1] as string;
    expect(url).toBeDefined();
    const reference = 'console-local-0001';
    const sent = await postCallback(
      server.url,
      key,
      callbackBody(sampleTransaction({ reference, status: 'Confirm' }), key),
    );
    expect(sent.status).toBe(204);

    const login = await consoleRequest(url);
    expect(login.status).toBe(303);
    const cookie = cookieOf(login) as string;
    const page = await consoleRequest(`${new URL(url).origin}/transactions`, {
      headers: { cookie },
    });
    expect(page.status).toBe(200);
    expect(page.body).toContain(reference);
    expect(page.body).toMatch(/Local mode: table callback-transactions, in memory/);
    expect(page.body).not.toMatch(/read-only/);
    expect((await consoleRequest(url)).status).toBe(403); // spent
    // The receiver's in-process counts reach the Activity view.
    const activity = await consoleRequest(`${new URL(url).origin}/activity`, {
      headers: { cookie },
    });
    expect(activity.body).toMatch(/Counted by this <code>npm start<\/code> since/);

    const exit = await server.stop();
    expect(exit.code).toBe(0);
    await expect(consoleRequest(url)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("hands --forward-events' folder to the console: a transaction's page shows the delivery", async () => {
    const consumer = await startEventConsumer();
    try {
      const server = await startServer(
        { PORT: '0', CALLBACK_API_KEYS: key, FORWARD_EVENTS_URL: consumer.url },
        { args: ['--in-memory'] },
      );
      const reference = 'console-forwarded-0001';
      const body = callbackBody(sampleTransaction({ reference, status: 'Confirm' }), key);
      expect((await postCallback(server.url, key, body)).status).toBe(204);
      await consumer.waitFor(1);

      const url = consoleLine.exec(server.stdout())?.[1] as string;
      const cookie = cookieOf(await consoleRequest(url)) as string;
      // The outbox records the delivery just after the consumer's answer: poll the page.
      const page = () =>
        consoleRequest(`${new URL(url).origin}/transactions/${reference}?tab=events`, {
          headers: { cookie },
        });
      expect((await page()).status).toBe(200);
      await expect
        .poll(async () => (await page()).body, { timeout: 10_000 })
        .toMatch(/<td class="delivery"[^>]*>\s*delivered/);
    } finally {
      await consumer.close();
    }
  });

  it('resubmits a refusal to its own receiver, with its own key', async () => {
    const server = await startServer(
      { PORT: '0', CALLBACK_API_KEYS: key },
      { args: ['--in-memory'] },
    );
    // Signed with another key: refused (403) and kept.
    const body = callbackBody(
      sampleTransaction({ reference: 'console-refused-0001' }),
      'other-key',
    );
    expect((await postCallback(server.url, key, body)).status).toBe(403);

    const url = consoleLine.exec(server.stdout())?.[1] as string;
    const origin = new URL(url).origin;
    const cookie = cookieOf(await consoleRequest(url)) as string;
    const list = await consoleRequest(`${origin}/refusals`, { headers: { cookie } });
    const path = /href="(\/refusals\/[0-9a-f]{64})"/.exec(list.body)?.[1] as string;
    expect(path).toBeDefined();
    const page = await consoleRequest(`${origin}${path}`, { headers: { cookie } });
    expect(page.body).not.toMatch(/was given none/);
    expect(page.body).toContain(`action="${path}/resubmit"`);

    const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.body)?.[1] as string;
    const answer = await consoleRequest(`${origin}${path}/resubmit`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: `_csrf=${csrf}`,
    });
    // Sent to this server with its key, and refused again for the same hash: the real answer.
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/id="outcome">Resubmitted: was 403 hash-mismatch; now 403 /);
  });

  it('binds the console to 127.0.0.1 even when HOST exposes the receiver', async () => {
    const server = await startServer(
      { PORT: '0', HOST: '0.0.0.0', CALLBACK_API_KEYS: key },
      { args: ['--in-memory'] },
    );
    const port = Number(consoleLine.exec(server.stdout())?.[2]);
    expect(port).toBeGreaterThan(0);
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    // A machine with no other interface has nothing to check beyond the printed address.
    if (outside) {
      await expect(rawRequest(`http://${outside.address}:${port}/`)).rejects.toThrow(
        /ECONNREFUSED/,
      );
    }
    // It listens on 127.0.0.1, and answers only under its own name there (421 to the bare address).
    expect((await rawRequest(`http://127.0.0.1:${port}/`)).status).toBe(421);
  });

  it('takes CONSOLE_PORT, and --no-console turns it off', async () => {
    const port = await freePort();
    const on = await startServer(
      { PORT: '0', CONSOLE_PORT: String(port) },
      { args: ['--in-memory'] },
    );
    expect(consoleLine.exec(on.stdout())?.[2]).toBe(String(port));
    await on.stop();

    const off = await startServer({ PORT: '0' }, { args: ['--in-memory', '--no-console'] });
    expect(off.stdout()).not.toMatch(/Console:/);
  });

  it('fails in one line (exit 3) when the console port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      // A process of its own: a start that fails half-way up ends in process.exit.
      const result = await runScript('start', ['--in-memory', '--port', '0'], {
        CONSOLE_PORT: String(port),
      });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(
        new RegExp(`^start failed: The console's port ${port} is in use: set CONSOLE_PORT`, 'm'),
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('refuses a bad console port with exit 2 and one line', async () => {
    const result = await runCommand('start', ['--console-port', 'x'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^start: the console port \(--console-port or CONSOLE_PORT\) must be 0-65535, got x$/m,
    );
  });
});
