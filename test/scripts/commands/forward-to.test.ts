import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { LocalServer } from '../../../scripts/local/server.js';
import { eventFiles } from '../../../scripts/operations/events/event-files.js';
import { verifySignature } from '../../../scripts/operations/events/webhook-signature.js';
import { type Engine, engineEndpoint, forEachEngine } from '../../support/engines.js';
import { type EventConsumer, startEventConsumer } from '../../support/event-consumer.js';
import {
  bigId,
  deadLetters,
  type Envelope,
  post,
  startForwardingServer,
  until,
  webhookHeaders,
} from '../../support/forwarding.js';
import { runCommand } from '../../support/in-process-cli.js';

/**
 * `npm run replay -- --forward-to <url>` and `npm run redrive -- --forward-to <url>`, run as a
 * user does, against the data a forwarding local server left (on both engines).
 */
forEachEngine((engine: Engine) => {
  let folder: string;
  let consumer: EventConsumer;
  let server: LocalServer | undefined;
  const tableName = `forward-to-${randomUUID()}`;
  const toolEnv = () => ({ DATA_DIR: folder, TABLE_NAME: tableName });
  const engineArgs =
    engine === 'dynamodb-local' ? ['--endpoint', engineEndpoint('dynamodb-local')] : [];

  beforeAll(async () => {
    consumer = await startEventConsumer();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await rm(folder, { recursive: true, force: true });
    consumer.received.length = 0;
    consumer.answer(204);
  });
  afterAll(() => consumer.close());

  it('replay --forward-to re-sends exactly the transactions received in its window', async () => {
    folder = await mkdtemp(join(tmpdir(), 'forward-to-'));
    server = await startForwardingServer(engine, { dataDir: folder, tableName, url: consumer.url });
    for (const reference of ['before-1', 'before-2']) await post(server, reference);
    await sleep(20);
    const since = new Date().toISOString();
    const inside = ['in-1', 'in-2', 'in-3'];
    for (const reference of inside) await post(server, reference);
    await sleep(20);
    const until_ = new Date().toISOString();
    await post(server, 'after-1');
    await consumer.waitFor(6);
    const secret = (await readFile(eventFiles(folder).signingSecret, 'utf8')).trim();
    await server.stop();
    server = undefined;
    consumer.received.length = 0;

    const result = await runCommand(
      'replay',
      ['--since', since, '--until', until_, '--forward-to', consumer.url, ...engineArgs],
      toolEnv(),
    );

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `Published 3 Transaction Completed event(s) to ${consumer.url}`,
    );
    const envelopes = consumer.accepted() as unknown as Envelope[];
    expect(envelopes.map((event) => event.detail.reference).sort()).toEqual(inside);
    for (const event of envelopes) {
      expect(event).toMatchObject({
        'detail-type': 'Transaction Completed',
        detail: { id: bigId },
      });
    }
    for (const { headers, body } of consumer.received) {
      expect(verifySignature(secret, webhookHeaders(headers), body)).toBe(true);
    }
  });

  it('redrive --forward-to re-sends the dead letters as they were and removes the delivered ones', async () => {
    folder = await mkdtemp(join(tmpdir(), 'forward-to-'));
    consumer.answer(503);
    server = await startForwardingServer(engine, {
      dataDir: folder,
      tableName: `forward-to-${randomUUID()}`,
      url: consumer.url,
    });
    await post(server, 'dead-1');
    await post(server, 'dead-2');
    await until(async () => (await deadLetters(folder)).length === 2, 'two dead letters');
    await server.stop();
    server = undefined;
    const letters = await deadLetters(folder);
    consumer.received.length = 0;
    consumer.answer(204);

    const result = await runCommand('redrive', ['--forward-to', consumer.url], toolEnv());

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('2 dead letter(s) delivered');
    expect(consumer.received.map((event) => event.body)).toEqual(letters.map((l) => l.body));
    expect(consumer.received.map((event) => event.headers['webhook-id'])).toEqual(
      letters.map((l) => l.id),
    );
    expect(await deadLetters(folder)).toEqual([]);
  });
});
