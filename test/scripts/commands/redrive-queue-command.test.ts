import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { transactionItem } from '../../../lambda/storage/transaction-item.js';
import { createTestTable, engineEndpoint, type TestTable } from '../../support/engines.js';
import { transaction } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';
import { recordOf, streamRecord } from '../../support/stream-records.js';

/**
 * `npm run redrive --queue` as an operator runs it: the table on dynalite; SQS, DynamoDB Streams
 * and EventBridge one local HTTP stand-in speaking their JSON protocols (none has a local engine
 * that can hold a given dead letter or trim a stream on demand), reached by the SDK's real
 * clients through AWS_ENDPOINT_URL_*, so the command's own wiring is what is tested.
 */
let table: TestTable;
let server: Server;
let env: Record<string, string>;
/** The SDK sends to the queue URL's host: the stand-in's. */
let queueUrl: string;
const stamp = Date.now();
/** Recorded in the table: what a trimmed batch is read again from. */
const stored = `dlq-table-${stamp}`;
/** EventBridge refuses events for references that start so. */
const refused = `refused-${stamp}`;

interface QueuedMessage {
  readonly id: string;
  readonly body: string;
  visible: boolean;
}
let queue: QueuedMessage[] = [];
/** Stream records per shard, as GetRecords returns them. */
const shards = new Map<string, unknown[]>();
const published: { Detail?: string; EventBusName?: string }[] = [];

/** Lambda's on-failure message for a stream batch. */
function deadLetter(streamArn: string, shardId: string, first: string, last: string): string {
  return JSON.stringify({
    requestContext: { condition: 'RetryAttemptsExhausted' },
    version: '1.0',
    DDBStreamBatchInfo: {
      streamArn,
      shardId,
      startSequenceNumber: first,
      endSequenceNumber: last,
      // recordOf's receivedAt is 09:26:53: the table read takes what was received around this.
      approximateArrivalOfFirstRecord: '2025-03-14T09:27:00.000Z',
      approximateArrivalOfLastRecord: '2025-03-14T09:27:01.000Z',
      batchSize: 1,
    },
  });
}

function enqueue(...bodies: string[]): void {
  queue = bodies.map((body, index) => ({ id: `message-${index}`, body, visible: true }));
}

type Answer = { status: number; body: unknown };

function awsError(type: string, message: string): Answer {
  return { status: 400, body: { __type: type, message } };
}

function answer(operation: string, input: Record<string, unknown>): Answer {
  switch (operation) {
    case 'ReceiveMessage': {
      const batch = queue.filter((m) => m.visible).slice(0, Number(input.MaxNumberOfMessages));
      for (const message of batch) message.visible = false;
      const Messages = batch.map((m) => ({
        MessageId: m.id,
        ReceiptHandle: `receipt-${m.id}`,
        Body: m.body,
        // The SDK checks each body against it, as SQS sends it.
        MD5OfBody: createHash('md5').update(m.body).digest('hex'),
      }));
      return { status: 200, body: { Messages } };
    }
    case 'DeleteMessage':
      queue = queue.filter((m) => `receipt-${m.id}` !== input.ReceiptHandle);
      return { status: 200, body: {} };
    case 'ChangeMessageVisibility':
      for (const m of queue) {
        if (`receipt-${m.id}` === input.ReceiptHandle) m.visible = input.VisibilityTimeout === 0;
      }
      return { status: 200, body: {} };
    case 'GetShardIterator':
      if (String(input.StreamArn).endsWith('/trimmed')) {
        return awsError('TrimmedDataAccessException', 'the records are past the trim horizon');
      }
      if (String(input.StreamArn).endsWith('/broken')) {
        return awsError('ValidationException', 'the stream answered nonsense');
      }
      return { status: 200, body: { ShardIterator: input.ShardId } };
    case 'GetRecords':
      return { status: 200, body: { Records: shards.get(String(input.ShardIterator)) ?? [] } };
    case 'PutEvents': {
      const entries = (input.Entries ?? []) as { Detail?: string }[];
      published.push(...entries);
      const Entries = entries.map((entry, index) =>
        String(JSON.parse(entry.Detail ?? '{}').reference).startsWith('refused-')
          ? { ErrorCode: 'ThrottlingException', ErrorMessage: 'Rate exceeded' }
          : { EventId: `event-${index}` },
      );
      const FailedEntryCount = Entries.filter((entry) => 'ErrorCode' in entry).length;
      return { status: 200, body: { FailedEntryCount, Entries } };
    }
    default:
      return awsError('UnknownOperationException', operation);
  }
}

const streamArn = (name: string) =>
  `arn:aws:dynamodb:us-east-1:123456789012:table/transactions/stream/${name}`;

beforeAll(async () => {
  table = await createTestTable('dynalite');
  await new DynamoDbTransactionStore(table.client, table.tableName).putIfAbsent(
    recordOf(transaction({ reference: stored })),
  );
  // A live shard: one event EventBridge refuses, then an INSERT that carries no image.
  const { dynamodb, eventName } = streamRecord(
    'INSERT',
    transactionItem(recordOf(transaction({ reference: refused }))),
    '000000000000000000201',
  );
  shards.set('shard-live', [
    { eventName, dynamodb },
    { eventName: 'INSERT', dynamodb: { SequenceNumber: '000000000000000000202' } },
  ]);
  server = createServer(async (request, response) => {
    const input = JSON.parse((await text(request)) || '{}') as Record<string, unknown>;
    const operation = String(request.headers['x-amz-target'] ?? '')
      .split('.')
      .pop();
    const { status, body } = answer(operation ?? '', input);
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const standIn = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  queueUrl = `${standIn}/123456789012/events-dlq`;
  env = {
    AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint('dynalite'),
    AWS_ENDPOINT_URL_SQS: standIn,
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: standIn,
    AWS_ENDPOINT_URL_EVENTBRIDGE: standIn,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    TABLE_NAME: table.tableName,
    EVENT_BUS_NAME: 'payments',
  };
});
afterAll(async () => {
  await table.drop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  published.length = 0;
});

describe('npm run redrive --queue', () => {
  it('says the queue is empty and exits 0 when there is nothing to redrive', async () => {
    enqueue();

    const result = await runCommand('redrive', ['--queue', queueUrl], env);

    expect(result.stdout).toBe('The dead-letter queue is empty.\n');
    expect(result.code).toBe(0);
  });

  it('republishes a trimmed batch from the table and deletes it; keeps one not from the consumer, exit 1', async () => {
    enqueue(deadLetter(streamArn('trimmed'), 'shard-1', '1', '2'), 'not json');

    const result = await runCommand('redrive', ['--queue', queueUrl], env);

    expect(result.stdout).toMatch(/^message-0\s+table\s+1\s+deleted$/m);
    expect(result.stdout).toMatch(
      /^message-1\s+none\s+0\s+kept in the queue: the message is not JSON$/m,
    );
    expect(result.stdout).toContain('1 of 2 message(s) redriven and deleted.\n');
    expect(result.code).toBe(1);
    expect(published.map((entry) => JSON.parse(entry.Detail ?? '{}').reference)).toEqual([stored]);
    expect(published[0]?.EventBusName).toBe('payments');
    // The kept message is visible again for the next run; the redriven one is gone.
    expect(queue).toEqual([{ id: 'message-1', body: 'not json', visible: true }]);
  });

  it('exits 3 keeping batches the stream or EventBridge failed, each with why, as JSON', async () => {
    enqueue(
      deadLetter(streamArn('broken'), 'shard-x', '1', '1'),
      deadLetter(streamArn('live'), 'shard-live', '000000000000000000201', '000000000000000000202'),
      JSON.stringify({ DDBStreamBatchInfo: { shardId: 'no-arn' } }),
    );

    const result = await runCommand('redrive', ['--queue', queueUrl, '--format', 'json'], env);

    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({
      items: [
        {
          messageId: 'message-0',
          source: 'none',
          deleted: false,
          published: 0,
          failed: [],
          unpublishable: [],
          problem: 'the stream answered nonsense',
        },
        {
          messageId: 'message-1',
          source: 'stream',
          deleted: false,
          published: 0,
          failed: [{ reference: refused, problem: 'ThrottlingException: Rate exceeded' }],
          unpublishable: [
            {
              record: '000000000000000000202',
              problem: expect.stringMatching(/^The INSERT record has no new image/),
            },
          ],
        },
        {
          messageId: 'message-2',
          source: 'none',
          deleted: false,
          published: 0,
          failed: [],
          unpublishable: [],
          problem: 'the message holds no DDBStreamBatchInfo: not from the stream consumer',
        },
      ],
      summary: { count: 3, messages: 3, deleted: 0 },
    });
    expect(queue.map((m) => [m.id, m.visible])).toEqual([
      ['message-0', true],
      ['message-1', true],
      ['message-2', true],
    ]);
  });

  it('names what kept a batch in the CSV result column, and stops after --max-messages', async () => {
    enqueue(
      deadLetter(streamArn('live'), 'shard-live', '000000000000000000201', '000000000000000000202'),
      deadLetter(streamArn('trimmed'), 'shard-1', '1', '2'),
    );

    const result = await runCommand(
      'redrive',
      ['--queue', queueUrl, '--format', 'csv', '--max-messages', '1'],
      env,
    );

    expect(result.code).toBe(3);
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      'messageId,source,published,deleted,result',
      expect.stringMatching(
        new RegExp(
          `^message-0,stream,0,false,"?kept in the queue: ${refused} not published \\(ThrottlingException: Rate exceeded\\); record 000000000000000000202 unpublishable \\(The INSERT record has no new image`,
        ),
      ),
    ]);
    expect(queue.map((m) => m.id)).toEqual(['message-0', 'message-1']);
  });

  it('exits 2 naming the bus when neither --bus nor EVENT_BUS_NAME is set', async () => {
    const { EVENT_BUS_NAME: _, ...noBus } = env;

    const result = await runCommand('redrive', ['--queue', queueUrl], noBus);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('name the bus with --bus or EVENT_BUS_NAME');
  });
});
