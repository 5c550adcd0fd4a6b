import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { transactionItem } from '../../../../lambda/storage/transaction-item.js';
import {
  type DeadLetter,
  readDeadLetters,
} from '../../../../scripts/operations/events/dead-letters.js';
import {
  type DeadLetterOutcome,
  redriveDeadLetters,
} from '../../../../scripts/operations/events/redrive-dead-letters.js';
import { type EventConsumer, startEventConsumer } from '../../../support/event-consumer.js';
import { transaction } from '../../../support/fixtures.js';
import { fast } from '../../../support/forwarding.js';
import { recordOf, streamRecord } from '../../../support/stream-records.js';

let consumer: EventConsumer;
let folder: string;
beforeAll(async () => {
  consumer = await startEventConsumer();
});
afterAll(() => consumer.close());
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'redrive-dead-letters-'));
  consumer.received.length = 0;
  consumer.answer(204);
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const letter = (id: string, more: Partial<DeadLetter> = {}): DeadLetter => ({
  id,
  attempts: 6,
  problem: 'HTTP 503',
  deadLetteredAt: '2026-11-20T10:00:00.000Z',
  ...more,
});
const body = (id: string) => JSON.stringify({ id, 'detail-type': 'Transaction Completed' });

async function writeLetters(letters: readonly DeadLetter[]): Promise<string> {
  const file = join(folder, 'dead-letters.jsonl');
  await writeFile(file, letters.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  return file;
}

async function redrive(file: string) {
  const outcomes: DeadLetterOutcome[] = [];
  const summary = await redriveDeadLetters(
    file,
    { url: consumer.url, policy: { ...fast, attempts: 1 } },
    (outcome) => outcomes.push(outcome),
  );
  return { summary, outcomes, left: (await readDeadLetters(file)).map((entry) => entry.id) };
}

describe('redriving local dead letters', () => {
  it('stops at the first letter the consumer still refuses and keeps it and the rest in the file', async () => {
    const file = await writeLetters([
      letter('event-1', { body: body('event-1') }),
      letter('event-2', { body: body('event-2') }),
      letter('event-3', { body: body('event-3') }),
    ]);
    consumer.answer(204);
    const first = await redriveDeadLetters(file, { url: consumer.url, policy: fast }, () => {
      consumer.answer(503);
    });

    expect(first).toEqual({ handled: 2, delivered: 1, refused: true });
    expect((await readDeadLetters(file)).map((entry) => entry.id)).toEqual(['event-2', 'event-3']);
  });

  it('says why a refused letter stayed: the answer the consumer gave', async () => {
    consumer.answer(503);
    const file = await writeLetters([letter('event-1', { body: body('event-1') })]);

    const { summary, outcomes, left } = await redrive(file);

    expect(summary).toEqual({ handled: 1, delivered: 0, refused: true });
    expect(outcomes).toEqual([
      { id: 'event-1', delivered: false, refused: true, problem: expect.stringMatching(/503/) },
    ]);
    expect(left).toEqual(['event-1']);
  });

  it("builds a record's event again under the letter's own id, so a consumer that saw it dedupes", async () => {
    const record = streamRecord('INSERT', transactionItem(recordOf(transaction())));
    const file = await writeLetters([letter('kept-id', { record })]);

    const { summary, left } = await redrive(file);

    expect(summary).toEqual({ handled: 1, delivered: 1, refused: false });
    expect(left).toEqual([]);
    const [sent] = consumer.accepted();
    expect(sent).toMatchObject({ id: 'kept-id', 'detail-type': 'Transaction Completed' });
    expect(consumer.received[0]?.headers['webhook-id']).toBe('kept-id');
  });

  it('a letter with neither an envelope nor a record owes nothing: it leaves the file unsent', async () => {
    const file = await writeLetters([letter('empty')]);

    const { summary, outcomes, left } = await redrive(file);

    expect(summary).toEqual({ handled: 1, delivered: 1, refused: false });
    expect(outcomes).toEqual([{ id: 'empty', delivered: true }]);
    expect(left).toEqual([]);
    expect(consumer.received).toEqual([]);
  });

  it('a record no reader can decode fails the redrive loudly and stays in the file', async () => {
    const record = streamRecord('INSERT', { reference: { S: 'ref-1' } });
    const image = record.dynamodb?.NewImage as Record<string, unknown>;
    image.amount = { X: '1' };
    const file = await writeLetters([letter('undecodable', { record })]);

    await expect(redrive(file)).rejects.toThrow(/Unsupported type passed: X/);
    expect((await readDeadLetters(file)).map((entry) => entry.id)).toEqual(['undecodable']);
  });

  it('removes the letters it delivered before one no reader can decode, so none goes out twice', async () => {
    const record = streamRecord('INSERT', { reference: { S: 'ref-1' } });
    (record.dynamodb?.NewImage as Record<string, unknown>).amount = { X: '1' };
    const file = await writeLetters([
      letter('event-1', { body: body('event-1') }),
      letter('undecodable', { record }),
      letter('event-3', { body: body('event-3') }),
    ]);

    await expect(redrive(file)).rejects.toThrow(/Unsupported type passed: X/);
    expect((await readDeadLetters(file)).map((entry) => entry.id)).toEqual([
      'undecodable',
      'event-3',
    ]);
    await expect(redrive(file)).rejects.toThrow(/Unsupported type passed: X/);
    expect(consumer.accepted().map((event) => event.id)).toEqual(['event-1']);
  });

  it('reports to no one when nobody listens, and still removes what it delivered', async () => {
    const file = await writeLetters([letter('event-1', { body: body('event-1') })]);

    const summary = await redriveDeadLetters(file, { url: consumer.url, policy: fast });

    expect(summary).toEqual({ handled: 1, delivered: 1, refused: false });
    expect(await readDeadLetters(file)).toEqual([]);
  });
});
