import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import type { EventPublisher } from '../../lambda/events/event-publisher.js';
import { type TimeWindow, timeWindow } from '../query/time-window.js';
import { conflictItems, itemsInWindow } from './recorded-transactions.js';
import { allPublished, insertRecord, type RepublishOutcome, republish } from './republish.js';
import {
  readStreamBatch,
  type StreamBatchInfo,
  streamBatchInfo,
  streamNoLongerHolds,
} from './stream-batch.js';

export interface RedriveDependencies {
  readonly sqs: Pick<SQSClient, 'send'>;
  readonly streams: Pick<DynamoDBStreamsClient, 'send'>;
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly publisher: EventPublisher;
  readonly eventBusName: string;
}

export interface RedriveOptions {
  readonly queueUrl: string;
  /** Stop after this many messages. @default all */
  readonly maxMessages?: number;
  /** Long enough to re-read and publish a batch; a message left undeleted reappears after. */
  readonly visibilityTimeoutSeconds?: number;
}

/** What became of one dead-letter message. */
export interface MessageOutcome {
  readonly messageId: string;
  /** Where its records were read: the stream while it holds them, else the table. */
  readonly source: 'stream' | 'table' | 'none';
  readonly deleted: boolean;
  readonly outcome?: RepublishOutcome;
  readonly problem?: string;
}

/**
 * How far before the batch's first arrival in the stream a record's `receivedAt` may be: the
 * receiver stamps it before the write, at most a function timeout earlier. Reading from the
 * table republishes everything in the widened window; consumers dedupe the extra copies.
 */
const receiveToStreamMarginMs = 5 * 60_000;

/**
 * Drains the dead-letter queue: each message's batch is re-read from the stream while it holds
 * it, from the table after, published as the stream consumer would, and the message deleted only
 * when every record of it was published. A message that fails stays in the queue (made visible
 * again at the end) for the next run; running twice republishes, which consumers dedupe.
 */
export async function redriveQueue(
  dependencies: RedriveDependencies,
  options: RedriveOptions,
): Promise<MessageOutcome[]> {
  const { sqs } = dependencies;
  const maxMessages = options.maxMessages ?? Number.POSITIVE_INFINITY;
  const outcomes: MessageOutcome[] = [];
  const kept: Message[] = [];
  const seen = new Set<string>();
  try {
    while (outcomes.length < maxMessages) {
      const { Messages: messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: options.queueUrl,
          MaxNumberOfMessages: Math.min(10, maxMessages - outcomes.length),
          VisibilityTimeout: options.visibilityTimeoutSeconds ?? 900,
          WaitTimeSeconds: 1,
        }),
      );
      const fresh = messages.filter((message) => !seen.has(message.MessageId ?? ''));
      if (fresh.length === 0) break;
      for (const message of fresh) {
        seen.add(message.MessageId ?? '');
        const outcome = await redriveMessage(dependencies, options.queueUrl, message);
        outcomes.push(outcome);
        if (!outcome.deleted) kept.push(message);
      }
    }
  } finally {
    // Kept messages become visible again now, so the next run need not wait out the timeout.
    for (const message of kept) {
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: options.queueUrl,
          ReceiptHandle: message.ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
    }
  }
  return outcomes;
}

async function redriveMessage(
  dependencies: RedriveDependencies,
  queueUrl: string,
  message: Message,
): Promise<MessageOutcome> {
  const messageId = message.MessageId ?? '?';
  let info: StreamBatchInfo;
  try {
    info = streamBatchInfo(message.Body ?? '');
  } catch (error) {
    return { messageId, source: 'none', deleted: false, problem: (error as Error).message };
  }
  let source: MessageOutcome['source'] = 'stream';
  let records: DynamoDBRecord[];
  try {
    records = await readStreamBatch(dependencies.streams, info);
  } catch (error) {
    if (!streamNoLongerHolds(error)) {
      return { messageId, source: 'none', deleted: false, problem: (error as Error).message };
    }
    source = 'table';
    records = await tableRecords(dependencies, info);
  }
  const outcome = await republish(records, dependencies.publisher, dependencies.eventBusName);
  if (!allPublished(outcome)) return { messageId, source, deleted: false, outcome };
  await dependencies.sqs.send(
    new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }),
  );
  return { messageId, source, deleted: true, outcome };
}

/**
 * Once the stream has let go of a batch, the table still holds what it carried (the receiver
 * never changes an item), but not which items: everything received around the batch's arrival
 * times is republished, transactions and conflicts alike.
 */
async function tableRecords(
  dependencies: RedriveDependencies,
  info: StreamBatchInfo,
): Promise<DynamoDBRecord[]> {
  const window = arrivalWindow(info);
  const { client, tableName } = dependencies;
  const records: DynamoDBRecord[] = [];
  for await (const item of itemsInWindow(client, tableName, window))
    records.push(insertRecord(item));
  for await (const item of conflictItems(client, tableName, window)) {
    records.push(insertRecord(item));
  }
  return records;
}

export function arrivalWindow(info: StreamBatchInfo): TimeWindow {
  const since = Date.parse(info.approximateArrivalOfFirstRecord) - receiveToStreamMarginMs;
  const until = Date.parse(info.approximateArrivalOfLastRecord) + 1;
  return timeWindow(new Date(since).toISOString(), new Date(until).toISOString());
}
