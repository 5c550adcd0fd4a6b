import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../../../scripts/local/free-port.js';
import { type LocalServer, startLocalServer } from '../../../../scripts/local/server.js';
import { eventFiles } from '../../../../scripts/operations/events/event-files.js';
import type { DeliveryPolicy } from '../../../../scripts/operations/events/http-delivery.js';
import { verifySignature } from '../../../../scripts/operations/events/webhook-signature.js';
import { type Engine, engineEndpoint, forEachEngine } from '../../../support/engines.js';
import { type EventConsumer, startEventConsumer } from '../../../support/event-consumer.js';
import {
  bigId,
  deadLetters,
  type Envelope,
  fast,
  key,
  post,
  startForwardingServer,
  until,
  webhookHeaders,
} from '../../../support/forwarding.js';
import { runCommand } from '../../../support/in-process-cli.js';

/**
 * `npm start -- --forward-events <url>` in-process, on both engines: the events a downstream
 * consumer receives are the ones the stream consumer would publish, once each, and the ones it
 * cannot take are retried, dead-lettered, and never lost across a restart.
 */

forEachEngine((engine: Engine) => {
  let folder: string;
  let consumer: EventConsumer;
  const servers: LocalServer[] = [];
  const logs: string[] = [];

  const start = (tableName: string, url: string, policy: DeliveryPolicy = fast) =>
    startForwardingServer(engine, {
      dataDir: folder,
      tableName,
      url,
      policy,
      log: (line) => logs.push(line),
    }).then((server) => {
      servers.push(server);
      return server;
    });

  beforeAll(async () => {
    consumer = await startEventConsumer();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    await rm(folder, { recursive: true, force: true });
    consumer.received.length = 0;
    consumer.answer(204);
    logs.length = 0;
  });
  afterAll(() => consumer.close());
  const freshFolder = async () => {
    folder = await mkdtemp(join(tmpdir(), 'forward-events-'));
  };

  it('POSTs one signed Transaction Completed per new callback, exact digits, none for a redelivery', async () => {
    await freshFolder();
    const server = await start(`forward-${randomUUID()}`, consumer.url);
    const references = Array.from({ length: 20 }, (_, index) => `fwd-${index}-${randomUUID()}`);

    for (const reference of references) expect((await post(server, reference)).status).toBe(204);
    for (const reference of references) expect((await post(server, reference)).status).toBe(204);
    expect((await post(server, references[3] as string, '999')).status).toBe(409);
    await consumer.waitFor(21);
    await sleep(300); // ten more reads of the table: nothing else may come

    expect(consumer.received).toHaveLength(21);
    const envelopes = consumer.accepted() as unknown as Envelope[];
    const completed = envelopes.filter((event) => event['detail-type'] === 'Transaction Completed');
    expect(completed.map((event) => event.detail.reference).sort()).toEqual([...references].sort());
    for (const event of completed) {
      expect(event).toMatchObject({
        version: '0',
        source: 'callback-receiver',
        account: '000000000000',
        resources: [],
        detail: { id: bigId, amount: '250075', currency: 'TRY', hashResult: 'verified' },
      });
      expect(event.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(event.detail).not.toHaveProperty('rawBody');
    }
    expect(new Set(envelopes.map((event) => event.id)).size).toBe(21);
    // The conflict comes after the transaction it claims: in order per reference.
    const conflictAt = envelopes.findIndex(
      (event) => event['detail-type'] === 'Transaction Conflict',
    );
    expect(envelopes[conflictAt]?.detail).toMatchObject({
      reference: references[3],
      amount: '999',
    });
    const completedAt = envelopes.findIndex((event) => event.detail.reference === references[3]);
    expect(completedAt).toBeLessThan(conflictAt);
    // Exact on the wire, not only after a parse that might have been lenient.
    expect(consumer.received[0]?.body).toContain(`"id":"${bigId}"`);

    const secret = (await readFile(eventFiles(server.runDir).signingSecret, 'utf8')).trim();
    for (const { headers, body } of consumer.received) {
      const signed = webhookHeaders(headers);
      expect(verifySignature(secret, signed, body)).toBe(true);
      expect(verifySignature(secret, signed, body.replace(bigId, '9007199254740992'))).toBe(false);
      expect(signed['webhook-id']).toBe((JSON.parse(body) as Envelope).id);
    }
  });

  it('retries a failing consumer, then writes the event to the dead-letter file and goes on', async () => {
    await freshFolder();
    const server = await start(`forward-${randomUUID()}`, consumer.url);
    consumer.answer(503);

    await post(server, 'dead-1');
    await until(async () => (await deadLetters(server.runDir)).length === 1, 'a dead letter');
    consumer.answer(204);
    await post(server, 'alive-2');
    await consumer.waitFor(4);

    const tries = consumer.received.slice(0, 3);
    expect(tries.map((event) => event.answered)).toEqual([503, 503, 503]);
    expect(new Set(tries.map((event) => event.headers['webhook-id'])).size).toBe(1);
    expect(consumer.accepted()[0]?.detail).toMatchObject({ reference: 'alive-2' });
    const [letter] = await deadLetters(server.runDir);
    expect(letter).toMatchObject({ reference: 'dead-1', attempts: 3, problem: 'answered 503' });
    expect(letter?.body).toBe(tries[0]?.body);
    expect(server.events?.deadLettered).toBe(1);
    expect(logs.join('\n')).toMatch(/not delivered after 3 tries: answered 503; 1 dead letter/);
  });

  it('dead-letters an event whose consumer refuses connections', async () => {
    await freshFolder();
    const nobody = `http://127.0.0.1:${await freePort()}/events`;
    const server = await start(`forward-${randomUUID()}`, nobody, { ...fast, attempts: 2 });

    await post(server, 'refused-1');
    await until(async () => (await deadLetters(server.runDir)).length === 1, 'a dead letter');

    const [letter] = await deadLetters(server.runDir);
    expect(letter).toMatchObject({ reference: 'refused-1', attempts: 2 });
    expect(letter?.problem).toMatch(/ECONNREFUSED/);
  });

  it('forwards after a restart what the stopped server still owed, each once', async () => {
    await freshFolder();
    const tableName = `forward-${randomUUID()}`;
    consumer.answer(503);
    const patient = { ...fast, attempts: 1_000, maxDeliveryMs: 60_000 };
    const first = await start(tableName, consumer.url, patient);
    const references = ['owed-1', 'owed-2', 'owed-3'];
    for (const reference of references) expect((await post(first, reference)).status).toBe(204);
    await consumer.waitFor(1);
    await first.stop();
    const refusedBefore = consumer.received.length;
    consumer.answer(204);

    const second = await start(tableName, consumer.url);
    await until(() => consumer.accepted().length === 3, 'three delivered events');
    await sleep(300);

    expect(second.events?.resumed).toBe(3);
    const delivered = consumer
      .accepted()
      .map((event) => (event.detail as { reference: string }).reference);
    expect(delivered).toEqual(references);
    expect(consumer.received.length).toBe(refusedBefore + 3);
  });

  it('forwards after a restart what was recorded while forwarding was off, none twice', async () => {
    await freshFolder();
    const tableName = `forward-${randomUUID()}`;
    const first = await start(tableName, consumer.url);
    expect((await post(first, 'before-stop')).status).toBe(204);
    await consumer.waitFor(1);
    // Delivered and recorded as such: a stop mid-answer would leave it owed, sent again by design.
    await until(() => first.events?.pending === 0, 'the delivery recorded');
    await first.stop();
    servers.splice(servers.indexOf(first), 1);
    // The same folder served without forwarding: its callbacks are recorded, not sent.
    const plain = await startLocalServer({
      port: 0,
      dataDir: folder,
      apiKeys: key,
      tableName,
      ...(engine === 'dynamodb-local' && { endpoint: engineEndpoint('dynamodb-local') }),
    });
    expect((await post(plain, 'while-off')).status).toBe(204);
    await plain.stop();

    const second = await start(tableName, consumer.url);
    expect((await post(second, 'after-start')).status).toBe(204);
    await until(() => consumer.accepted().length >= 3, 'three delivered events');
    await sleep(300);

    const delivered = consumer
      .accepted()
      .map((event) => (event.detail as { reference: string }).reference);
    expect(delivered).toEqual(['before-stop', 'while-off', 'after-start']);
  });

  it('keeps the signing secret across restarts, owner-only, and makes a new one only when asked', async () => {
    await freshFolder();
    const tableName = `forward-${randomUUID()}`;
    const told: string[] = [];
    const serve = async (options: { rotateSecret?: boolean; quiet?: boolean }) => {
      const server = await startLocalServer({
        port: 0,
        dataDir: folder,
        apiKeys: key,
        tableName,
        ...(engine === 'dynamodb-local' && { endpoint: engineEndpoint('dynamodb-local') }),
        forwardEvents: {
          url: consumer.url,
          policy: fast,
          log: (line) => told.push(line),
          ...options,
        },
      });
      const secret = (await readFile(eventFiles(folder).signingSecret, 'utf8')).trim();
      const { mode } = await stat(eventFiles(folder).signingSecret);
      return { server, secret, mode: mode & 0o777 };
    };

    const first = await serve({});
    expect((await post(first.server, 'told')).status).toBe(204);
    await until(() => first.server.events?.pending === 0 && told.length > 0, 'a delivery told');
    await first.server.stop();
    const second = await serve({ quiet: true });
    expect((await post(second.server, 'quiet')).status).toBe(204);
    await until(() => consumer.accepted().length === 2, 'the second delivery');
    await until(() => second.server.events?.pending === 0, 'the second delivery recorded');
    await second.server.stop();
    const rotated = await serve({ rotateSecret: true });
    await rotated.server.stop();

    expect(second.secret).toBe(first.secret);
    expect(second.server.events?.newSecret).toBe(false);
    expect(rotated.secret).not.toBe(first.secret);
    expect(rotated.server.events?.newSecret).toBe(true);
    expect([first.mode, second.mode, rotated.mode]).toEqual([0o600, 0o600, 0o600]);
    // The first run told its delivery; the quiet one told nothing.
    expect(told).toEqual([expect.stringMatching(/\(Transaction Completed told\) delivered: 204/)]);
  });

  it('forwards an operator correction as one Transaction Corrected, and a kept decision as none', async () => {
    await freshFolder();
    const tableName = `forward-${randomUUID()}`;
    const server = await start(tableName, consumer.url);
    const [corrected, kept] = [`fix-${randomUUID()}`, `keep-${randomUUID()}`];
    for (const reference of [corrected, kept]) {
      expect((await post(server, reference, '1000')).status).toBe(204);
      expect((await post(server, reference, '1250')).status).toBe(409);
    }
    await consumer.waitFor(4); // two Completed, two Conflict

    // settle runs as an operator would, finding the running server through its data folder.
    const env = { DATA_DIR: folder, TABLE_NAME: tableName };
    const engineArgs =
      engine === 'dynamodb-local' ? ['--endpoint', engineEndpoint('dynamodb-local')] : [];
    const settle = (reference: string, accept: string) =>
      runCommand(
        'settle',
        [reference, '--accept', accept, '--reason', 'gateway ticket 7', ...engineArgs],
        env,
      );
    for (const [reference, accept] of [
      [corrected, 'received'],
      [kept, 'stored'],
    ] as const) {
      const result = await settle(reference, accept);
      expect(result.code, result.stderr).toBe(0);
    }
    await consumer.waitFor(5);
    await sleep(300); // ten more reads of the table: the kept decision must bring nothing

    // In order within each reference; two references are sent side by side.
    const events = consumer.accepted() as unknown as Envelope[];
    const typesOf = (reference: string) =>
      events
        .filter((event) => event.detail.reference === reference)
        .map((event) => event['detail-type']);
    expect(events).toHaveLength(5);
    expect(typesOf(corrected)).toEqual([
      'Transaction Completed',
      'Transaction Conflict',
      'Transaction Corrected',
    ]);
    expect(typesOf(kept)).toEqual(['Transaction Completed', 'Transaction Conflict']);
    expect(events.at(-1)?.detail).toMatchObject({
      reference: corrected,
      version: 2,
      before: { amount: '1000' },
      after: { amount: '1250' },
    });
  }, 120_000);
});
