import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conflictItem, transactionItem } from '../../../../lambda/storage/transaction-item.js';
import { eventFiles } from '../../../../scripts/operations/events/event-files.js';
import { startEventForwarder } from '../../../../scripts/operations/events/event-forwarder.js';
import { Outbox } from '../../../../scripts/operations/events/outbox.js';
import { insertRecord } from '../../../../scripts/operations/events/republish.js';
import { transaction } from '../../../support/fixtures.js';
import { deadLetters, until } from '../../../support/forwarding.js';
import { recordOf } from '../../../support/stream-records.js';

/** As the table stream appends them: an INSERT of the item, with an id of its own. */
const completed = (reference: string) => withId(insertRecord(transactionItem(fixture(reference))));
const conflicting = (reference: string) =>
  withId(insertRecord(conflictItem(fixture(reference, 999))));
const fixture = (reference: string, amount = 424242) =>
  recordOf(transaction({ reference, amount }), { receivedAt: new Date().toISOString() });
const withId = (record: DynamoDBRecord): DynamoDBRecord => ({ ...record, eventID: randomUUID() });

/** Patient enough that a refused event is still being retried while the test looks. */
const patient = { attempts: 10_000, firstRetryMs: 10, maxRetryMs: 20, maxDeliveryMs: 60_000 };

describe('the forwarder sending the outbox to a consumer', () => {
  let dir: string;
  let consumer: Server;
  let url: string;
  /** [detail-type, reference] of each event answered 2xx, in arrival order. */
  let delivered: [string, string][];
  /** References the consumer refuses (503) for now. */
  let refused: Set<string>;
  /** References the consumer refuses once, then takes. */
  let refusedOnce: Set<string>;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forwarder-'));
    delivered = [];
    refused = new Set();
    refusedOnce = new Set();
    consumer = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const event = JSON.parse(body) as { 'detail-type': string; detail: { reference: string } };
        if (refused.has(event.detail.reference)) return response.writeHead(503).end();
        if (refusedOnce.delete(event.detail.reference)) return response.writeHead(503).end();
        delivered.push([event['detail-type'], event.detail.reference]);
        response.writeHead(204).end();
      });
    }).listen(0, '127.0.0.1');
    await once(consumer, 'listening');
    url = `http://127.0.0.1:${(consumer.address() as AddressInfo).port}/events`;
  });
  afterEach(async () => {
    consumer.close();
    await rm(dir, { recursive: true, force: true });
  });

  const open = async (records: DynamoDBRecord[]) => {
    const outbox = await Outbox.open(eventFiles(dir));
    await outbox.start(new Map());
    await outbox.append(
      records.map((record) => ({
        key: record.dynamodb?.Keys?.reference?.S ?? '',
        digest: randomUUID(),
        record,
      })),
    );
    return outbox;
  };

  it('delivers other references while one is refused, and keeps each reference in order', async () => {
    refused.add('stuck');
    const outbox = await open([
      completed('stuck'),
      conflicting('stuck'),
      completed('free-1'),
      completed('free-2'),
    ]);
    const forwarder = startEventForwarder({
      outbox,
      target: { url, policy: patient },
      deadLetterFile: eventFiles(dir).deadLetters,
      log: () => {},
    });
    try {
      await until(() => delivered.length === 2, 'the free references delivered');
      expect(delivered.map(([, reference]) => reference).sort()).toEqual(['free-1', 'free-2']);

      refused.clear();
      await until(() => forwarder.pending === 0, 'everything delivered');
    } finally {
      await forwarder.stop();
    }

    expect(delivered.filter(([, reference]) => reference === 'stuck')).toEqual([
      ['Transaction Completed', 'stuck'],
      ['Transaction Conflict', 'stuck'],
    ]);
    const reopened = await Outbox.open(eventFiles(dir));
    expect(reopened.owed).toBe(0);
  });

  it('tells each delivered event and retry apart from dead letters, which are told always', async () => {
    refused.add('refused');
    const outbox = await open([completed('ok-1'), completed('refused')]);
    const told: string[] = [];
    const progress: string[] = [];
    const forwarder = startEventForwarder({
      outbox,
      target: { url, policy: { attempts: 2, firstRetryMs: 10, maxRetryMs: 10 } },
      deadLetterFile: eventFiles(dir).deadLetters,
      log: (line) => told.push(line),
      progress: (line) => progress.push(line),
    });
    await until(() => forwarder.pending === 0, 'both done with');
    await forwarder.stop();

    expect(progress).toHaveLength(2);
    expect(progress).toContainEqual(
      expect.stringMatching(/^event \S+ \(Transaction Completed ok-1\) delivered: 204 in \d+ ms$/),
    );
    expect(progress).toContainEqual(
      expect.stringMatching(
        /^event \S+ \(Transaction Completed refused\): try 1 failed \(answered 503\); trying again in \d+ ms$/,
      ),
    );
    expect(told).toEqual([
      expect.stringMatching(/\(Transaction Completed refused\) not delivered after 2 tries/),
    ]);
    // Nothing of the transaction's content (names, amounts) in any line.
    expect([...told, ...progress].join('\n')).not.toMatch(/Öztürk|424242/);
  });
  it('says how many tries an event took when the first did not do', async () => {
    refusedOnce.add('second-try');
    const outbox = await open([completed('second-try')]);
    const progress: string[] = [];
    const forwarder = startEventForwarder({
      outbox,
      target: { url, policy: patient },
      deadLetterFile: eventFiles(dir).deadLetters,
      log: () => {},
      progress: (line) => progress.push(line),
    });
    await until(() => forwarder.pending === 0, 'delivered on the second try');
    await forwarder.stop();

    expect(progress.at(-1)).toMatch(
      /^event \S+ \(Transaction Completed second-try\) delivered: 204 in \d+ ms, 2 tries$/,
    );
  });

  it('puts a record that cannot become an event among the dead letters, skips a removal, and goes on', async () => {
    const broken = withId({ eventName: 'INSERT', dynamodb: { Keys: { reference: { S: 'x' } } } });
    // A removal stands for no event: done with, nothing sent.
    const removal = withId({ eventName: 'REMOVE', dynamodb: { Keys: { reference: { S: 'y' } } } });
    const outbox = await open([broken, removal, completed('after-it')]);
    const told: string[] = [];
    const forwarder = startEventForwarder({
      outbox,
      concurrency: 1,
      target: { url, policy: patient },
      deadLetterFile: eventFiles(dir).deadLetters,
      log: (line) => told.push(line),
    });
    await until(() => forwarder.pending === 0, 'both done with');
    await forwarder.stop();

    expect(delivered).toEqual([['Transaction Completed', 'after-it']]);
    expect(told).toEqual([
      `event ${broken.eventID} (a record) not delivered after 0 tries: The INSERT record has no new image; the table stream must be NEW_IMAGE or NEW_AND_OLD_IMAGES; 1 dead letter(s) this run, in ${eventFiles(dir).deadLetters}`,
    ]);
    const letters = await deadLetters(dir);
    expect(letters).toEqual([
      expect.objectContaining({ id: broken.eventID, attempts: 0, record: broken }),
    ]);
    expect(letters[0]).not.toHaveProperty('body');
  });

  it('stops forwarding, saying why, at a record it cannot even read, and keeps it owed', async () => {
    const unreadable = completed('unreadable');
    (unreadable.dynamodb?.NewImage as Record<string, unknown>).amount = { X: '1' };
    const outbox = await open([unreadable]);
    const told: string[] = [];
    const forwarder = startEventForwarder({
      outbox,
      target: { url, policy: patient },
      deadLetterFile: eventFiles(dir).deadLetters,
      log: (line) => told.push(line),
    });
    await until(() => told.length > 0, 'the forwarder gives up');
    await forwarder.stop();

    expect(told).toEqual(['event forwarding stopped: Unsupported type passed: X']);
    expect(forwarder.pending).toBe(1);
    expect(forwarder.deadLettered).toBe(0);
  });
});
