import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackBody, sampleTransaction } from '../../../scripts/gateway/gateway-callback.js';
import { type EventConsumer, startEventConsumer } from '../../support/event-consumer.js';
import { until } from '../../support/forwarding.js';
import { runCommand } from '../../support/in-process-cli.js';
import { postCallback, startServer } from '../../support/local-cli.js';
import { localDataFolder } from '../../support/local-data-folder.js';

/** `FORWARD_EVENTS_URL=… npm start` and `--forward-events`, as a user runs them. */
describe('npm start with event forwarding', () => {
  const folder = localDataFolder('forward-command-');
  const key = 'forward-command-key';
  let consumer: EventConsumer;
  beforeAll(async () => {
    consumer = await startEventConsumer();
  });
  afterAll(() => consumer.close());
  /** `npm start` on the shared folder, on a fresh port, forwarding to the consumer. */
  const forwardingEnv = () =>
    folder.env({ CALLBACK_API_KEYS: key, FORWARD_EVENTS_URL: consumer.url });

  it('takes the URL from FORWARD_EVENTS_URL, says so in the banner and forwards', async () => {
    const env = await forwardingEnv();
    const server = await startServer(env);

    const answer = await postCallback(
      server.url,
      key,
      callbackBody(sampleTransaction({ reference: 'from-the-cli' }), key),
    );
    await consumer.waitFor(1);
    const stopped = await server.stop('SIGINT');

    expect(answer.status).toBe(204);
    expect(server.stdout()).toMatch(/Events +POSTed to http:\/\/127\.0\.0\.1:\d+\/events/);
    expect(server.stdout()).toMatch(/signed; a new secret in .*events\/signing-secret/);
    expect(consumer.accepted()[0]).toMatchObject({
      'detail-type': 'Transaction Completed',
      detail: { reference: 'from-the-cli' },
    });
    expect(stopped.code).toBe(0);
    expect(server.stderr()).toMatch(
      /^event \S+ \(Transaction Completed from-the-cli\) delivered: 204 in \d+ ms$/m,
    );
  });

  it('keeps the secret across a restart, says nothing per delivery with --quiet, rotates on request', async () => {
    const env = await forwardingEnv();
    const first = await startServer(env);
    await first.stop('SIGINT');
    const quiet = await startServer(env, { args: ['--quiet'] });
    const answer = await postCallback(
      quiet.url,
      key,
      callbackBody(sampleTransaction({ reference: 'told-nothing' }), key),
    );
    await until(
      () => consumer.accepted().some((event) => JSON.stringify(event).includes('told-nothing')),
      'the quiet delivery',
    );
    await quiet.stop('SIGINT');
    const rotated = await startServer(env, { args: ['--rotate-forwarding-secret'] });
    await rotated.stop('SIGINT');

    expect(answer.status).toBe(204);
    expect(quiet.stdout()).toMatch(/signed; the kept secret in .*events\/signing-secret/);
    expect(quiet.stderr()).not.toMatch(/delivered/);
    expect(rotated.stdout()).toMatch(/signed; a new secret in .*events\/signing-secret/);
  }, 60_000);

  it('forwards after a crash (SIGKILL) what was recorded and not yet delivered, each once', async () => {
    const env = await forwardingEnv();
    consumer.received.length = 0;
    consumer.answer(503);
    const crashing = await startServer(env);
    const references = ['crash-1', 'crash-2'];
    for (const reference of references) {
      const answer = await postCallback(
        crashing.url,
        key,
        callbackBody(sampleTransaction({ reference }), key),
      );
      expect(answer.status).toBe(204);
    }
    await consumer.waitFor(1);
    await crashing.stop('SIGKILL');
    consumer.answer(204);
    // The killed server's lock goes stale after 5 s; until then the folder is refused.
    await sleep(6_000);

    const restarted = await startServer(env);
    await until(() => consumer.accepted().length >= 2, 'both events after the restart', 20_000);
    await sleep(500);
    await restarted.stop('SIGINT');

    const delivered = consumer.accepted().map((event) => event.detail as { reference: string });
    expect(delivered.map((detail) => detail.reference)).toEqual(references);
  }, 60_000);

  it('refuses a --forward-events that is not an http(s) URL with exit 2 and one line', async () => {
    const result = await runCommand('start', ['--forward-events', 'ftp://example.com/x'], {});

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^start: --forward-events \(or FORWARD_EVENTS_URL\) must be an http\(s\) URL, got ftp:\/\/example\.com\/x$/m,
    );
  });

  it('refuses a consumer on another machine unless --allow-remote, and then plain http', async () => {
    const remote = await runCommand('start', ['--in-memory', '--port', '0'], {
      FORWARD_EVENTS_URL: 'http://events.example.com/in',
    });
    const plain = await runCommand(
      'start',
      ['--in-memory', '--port', '0', '--forward-events', 'http://10.1.2.3/in', '--allow-remote'],
      {},
    );

    expect([remote.code, plain.code]).toEqual([2, 2]);
    expect(remote.stderr).toMatch(
      /^start: --forward-events http:\/\/events\.example\.com\/in is not on this machine: .*--allow-remote/m,
    );
    expect(plain.stderr).toMatch(
      /^start: --forward-events http:\/\/10\.1\.2\.3\/in: .*https only$/m,
    );
    expect(remote.stdout + plain.stdout).not.toContain('POST');
  });
});
