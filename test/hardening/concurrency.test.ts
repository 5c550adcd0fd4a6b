import { setTimeout as sleep } from 'node:timers/promises';
import { type DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { indexNames } from '../../lambda/storage/table-definition.js';
import { type Random, seededRandom } from '../../scripts/gateway/seeded-random.js';
import { createTestClient, createTestTable, engines, type TestTable } from '../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../support/fixtures.js';
import { expectNoLeaks, logCapture } from '../support/log-capture.js';
import { receiverWith } from '../support/receiver.js';
import { storedItem } from '../support/stored-items.js';

/**
 * N simultaneous deliveries for one reference, from several function instances (each with its
 * own DynamoDB client and connections), started in a shuffled order with small random delays,
 * round after round. The engine's conditional write decides who was first: "first" is the
 * delivery whose write succeeded, the one answered `204 recorded`, whose content is stored.
 */
// `npm test` runs a share; `npm run test:hardening` (HARDENING_SWEEP=1) every round.
const rounds = Number(
  process.env.CONCURRENCY_ROUNDS ?? (process.env.HARDENING_SWEEP === '1' ? 6 : 3),
);
const sizes = [2, 10, 100] as const;
const instances = 8;
const seed = Number(process.env.CONCURRENCY_SEED ?? 6_021);
const logs = logCapture();
const figures: string[] = [];

beforeAll(() => logs.start());
afterAll(() => {
  logs.stop();
  console.log(figures.join('\n'));
});

interface Delivery {
  readonly requestId: string;
  readonly body: string;
  /** Which content this delivery carries (deliveries of one content are identical). */
  readonly content: number;
}

interface Answer {
  readonly delivery: Delivery;
  readonly status: number;
  readonly outcome: string | undefined;
}

describe.each(engines)('concurrent deliveries on %s', (engine) => {
  let table: TestTable;
  let clients: DynamoDBClient[];
  let functions: ReturnType<typeof receiverWith>[];

  beforeAll(async () => {
    table = await createTestTable(engine);
    clients = Array.from({ length: instances }, () => createTestClient(engine));
    functions = clients.map((client) =>
      receiverWith(new DynamoDbTransactionStore(client, table.tableName)),
    );
  });

  afterAll(async () => {
    for (const client of clients) client.destroy();
    await table.drop();
  });

  /** Starts every delivery in a shuffled order, each after 0–3 ms, on a random instance. */
  async function deliverAll(deliveries: readonly Delivery[], random: Random) {
    const started = random.shuffled(deliveries).map(async (delivery) => {
      const instance = functions[random.int(0, functions.length - 1)] as (typeof functions)[number];
      const wait = random.int(0, 3);
      await sleep(wait);
      const response = await instance(
        callbackEvent(delivery.body, { requestId: delivery.requestId }),
      );
      return {
        delivery,
        status: response.statusCode,
        outcome: response.headers?.['x-callback-outcome'] as string | undefined,
      };
    });
    return Promise.all(started);
  }

  async function conflictsKept(reference: string): Promise<number> {
    const output = await table.client.send(
      new QueryCommand({
        TableName: table.tableName,
        IndexName: indexNames.byConflictOf,
        KeyConditionExpression: 'conflictOf = :reference',
        ExpressionAttributeValues: { ':reference': { S: reference } },
      }),
    );
    return output.Count ?? 0;
  }

  /**
   * `contents` different bodies for one reference, `copies` identical deliveries of each, all at
   * once. Whatever the interleaving: one item, holding the content of the one `recorded` 204;
   * every copy of that content 204, every other delivery 409, each other content kept once.
   */
  async function race(contents: number, copies: number, round: number): Promise<Answer[]> {
    // Prepare
    const random = seededRandom(seed + round * 1_000 + contents * 7 + copies);
    const fields = transaction({ username: 'race.sender', firstName: 'Ğizli', lastName: 'Ğizli' });
    const reference = fields.reference as string;
    const deliveries: Delivery[] = [];
    for (let content = 0; content < contents; content++) {
      const body = signed({ ...fields, amount: 1_000 + content }, specKey);
      for (let copy = 0; copy < copies; copy++) {
        deliveries.push({ requestId: `${reference}/c${content}/d${copy}`, body, content });
      }
    }

    // Act
    const answers = await deliverAll(deliveries, random);

    // Assess
    const recorded = answers.filter((answer) => answer.outcome === 'recorded');
    expect(recorded).toHaveLength(1);
    const winner = recorded[0] as Answer;
    const item = await storedItem(table, { reference });
    expect(item?.requestId?.S).toBe(winner.delivery.requestId);
    expect(item?.rawBody?.S).toBe(winner.delivery.body);
    for (const answer of answers) {
      if (answer.delivery.content === winner.delivery.content) {
        expect([answer.status, answer.outcome]).toEqual([
          204,
          answer === winner ? 'recorded' : 'duplicate',
        ]);
      } else {
        expect(answer.status).toBe(409);
      }
    }
    expect(await conflictsKept(reference)).toBe(contents - 1);
    return answers;
  }

  describe.each(sizes)('N = %i', (n) => {
    it(`records one of ${n} identical deliveries and answers every one 204, in ${rounds} shuffled rounds`, async () => {
      for (let round = 0; round < rounds; round++) await race(1, n, round);
      figures.push(
        `${engine}: ${rounds} rounds of ${n} identical deliveries: one recorded, ${n - 1} duplicate, each round`,
      );
    }, 120_000);

    it(`records the first of ${n} different amounts for one reference and answers the others 409, in ${rounds} shuffled rounds`, async () => {
      const winners = new Set<number>();
      for (let round = 0; round < rounds; round++) {
        const answers = await race(n, 1, round);
        const winner = answers.find((answer) => answer.status === 204);
        if (winner) winners.add(winner.delivery.content);
      }
      figures.push(
        `${engine}: ${rounds} rounds of ${n} different amounts: one 204, ${n - 1} × 409 each round; ${winners.size} different winners`,
      );
    }, 120_000);

    it(`answers every copy of the stored content 204 and every other delivery 409 when ${n} deliveries mix contents, in ${rounds} shuffled rounds`, async () => {
      const contents = n === 2 ? 2 : 3;
      const copies = Math.max(1, Math.floor(n / contents));
      for (let round = 0; round < rounds; round++) await race(contents, copies, round);
      figures.push(
        `${engine}: ${rounds} rounds of ${contents} contents × ${copies} copies: the winner's copies 204, others 409`,
      );
    }, 120_000);
  });
});

describe('after the concurrent runs', () => {
  it('leaves no key, salted text or name in any log line', () => {
    expectNoLeaks(logs, 'callback refused', [
      ['the key', specKey],
      ['a name', 'Ğizli'],
      ['an escaped name', '\\u011eizli'],
      ['a username', 'race.sender'],
    ]);
  });
});
