import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { eventForRecord, putEventsEntry } from '../../lambda/events/stream-record-event.js';
import { transactionItem } from '../../lambda/storage/transaction-item.js';
import type { TransactionRecord } from '../../lambda/storage/transaction-store.js';
import type { DeadLetter } from '../../scripts/operations/events/dead-letters.js';
import { outgoingEvent } from '../../scripts/operations/events/event-target.js';
import { insertRecord } from '../../scripts/operations/events/republish.js';
import { putBatch } from '../../test/support/put-batch.js';

/** The day every bench transaction is received in: reconcile's window. */
export const benchDay = { since: '2026-03-14T00:00:00.000Z', until: '2026-03-15T00:00:00.000Z' };

const dayMs = 86_400_000;

/** Transaction `i` of `count`, received in {@link benchDay}; a short body keeps seeding quick. */
export function benchRecord(i: number, count: number): TransactionRecord {
  const receivedAt = new Date(Date.parse(benchDay.since) + Math.floor((i * dayMs) / count));
  const transaction = {
    id: String(10_000_000 + i),
    username: `user-${i % 5000}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    amount: String(100 + (i % 100_000)),
    currency: ['EUR', 'TRY', 'USD'][i % 3] as string,
    type: i % 2 === 0 ? ('Deposit' as const) : ('Withdrawal' as const),
    status: i % 5 === 0 ? ('Reject' as const) : ('Confirm' as const),
    reference: `scale-${i.toString().padStart(8, '0')}-9f1c7d2e-44b1-4c7a-a5e3`,
    extra: {},
  };
  return {
    transaction,
    fingerprint: 'f'.repeat(64),
    rawBody: JSON.stringify(transaction),
    receivedAt: receivedAt.toISOString(),
    hashResult: 'verified',
    keyId: 'k1',
    requestId: `req-${i}`,
    sourceIp: '203.0.113.7',
  };
}

/**
 * Writes transactions `0…count-1` (generated as they are written: memory stays flat), 25 to a
 * request, `concurrency` requests at once; `progress` is told every 10,000.
 */
export async function seedTransactions(
  client: DynamoDBClient,
  tableName: string,
  count: number,
  progress: (written: number) => void,
  concurrency = 6,
): Promise<void> {
  let next = 0;
  let written = 0;
  const worker = async () => {
    while (next < count) {
      const start = next;
      next = Math.min(count, next + 25);
      await putBatch(
        client,
        tableName,
        Array.from({ length: next - start }, (_, k) =>
          transactionItem(benchRecord(start + k, count)),
        ),
      );
      const before = written;
      written += 25;
      if (Math.floor(before / 10_000) !== Math.floor(written / 10_000)) progress(written);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * The gateway's report as CSV: the seeded transactions, one in a hundred with another amount
 * (a mismatch), then `missing` rows never recorded. Written as a stream to `path`.
 */
export function* reportLines(recorded: number, missing: number): Generator<string> {
  yield 'reference,amount,currency,type,status\n';
  for (let i = 0; i < recorded; i++) {
    const { transaction: t } = benchRecord(i, recorded);
    const amount = i % 100 === 0 ? `${t.amount}.5` : t.amount;
    yield `${t.reference},${amount},${t.currency},${t.type},${t.status}\n`;
  }
  for (let i = 0; i < missing; i++) {
    yield `never-recorded-${i.toString().padStart(8, '0')},1,TRY,Deposit,Confirm\n`;
  }
}

/**
 * Local mode's dead-letter file for `count` events of the bench's day, a line each as the
 * forwarder writes them, each built by the real path: the bench transaction's item as an INSERT
 * record, the stream consumer's event and entry, the envelope a consumer would have been sent.
 */
export function* deadLetterLines(count: number): Generator<string> {
  for (let i = 0; i < count; i++) {
    const event = eventForRecord(insertRecord(transactionItem(benchRecord(i, count))));
    if (event === undefined) throw new Error(`bench transaction ${i} makes no event`);
    const outgoing = outgoingEvent(putEventsEntry(event, 'local'), { region: 'us-east-1' });
    const letter: DeadLetter = {
      ...outgoing,
      detailType: event.detailType,
      reference: event.detail.reference,
      url: 'http://127.0.0.1:9/events',
      attempts: 6,
      problem: 'ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9)',
      deadLetteredAt: benchDay.until,
    };
    yield `${JSON.stringify(letter)}\n`;
  }
}

/** Writes generated lines to `path` as a stream (a million rows are never one string); `path`. */
export async function writeLines(path: string, lines: Iterable<string>): Promise<string> {
  await pipeline(Readable.from(lines), createWriteStream(path));
  return path;
}
