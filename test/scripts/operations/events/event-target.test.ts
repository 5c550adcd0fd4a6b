import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventForRecord, putEventsEntry } from '../../../../lambda/events/stream-record-event.js';
import type { TransactionEvent } from '../../../../lambda/events/transaction-event.js';
import { transactionItem } from '../../../../lambda/storage/transaction-item.js';
import { HttpEventPublisher } from '../../../../scripts/operations/events/event-target.js';
import { transaction } from '../../../support/fixtures.js';
import { recordOf, streamRecord } from '../../../support/stream-records.js';

/** A consumer that refuses (503) the events of one reference and takes the rest. */
let server: Server;
let url: string;
const received: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { reference } = (JSON.parse(body) as { detail: { reference: string } }).detail;
      received.push(reference);
      response.writeHead(reference === 'refused' ? 503 : 204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** The entry the stream consumer builds for a transaction with this reference. */
const entry = (reference: string) => {
  const record = streamRecord('INSERT', transactionItem(recordOf(transaction({ reference }))));
  return putEventsEntry(eventForRecord(record) as TransactionEvent, 'replay-bus');
};

describe('replay publishing to a URL instead of a bus', () => {
  it('publishes in order and, after an event the consumer refuses, sends none of the rest', async () => {
    const publisher = new HttpEventPublisher({ url, policy: { attempts: 1 } });

    const outcomes = await publisher.publish([entry('first'), entry('refused'), entry('after')]);

    expect(outcomes).toEqual([
      { status: 'published', eventId: expect.any(String) },
      { status: 'failed', errorCode: 'answered 503' },
      { status: 'not-sent' },
    ]);
    expect(received).toEqual(['first', 'refused']);
  });
});
