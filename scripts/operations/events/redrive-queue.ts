import {
  type DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  type _Record as StreamApiRecord,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { UsageError } from '../../cli/cli-errors.js';
import { timeWindow } from '../../table/time-window.js';
import {
  conflictItems,
  itemsInWindow,
  type QueryContext,
} from '../../table/transaction-queries.js';
import {
  type Destination,
  insertRecord,
  lambdaJson,
  type RepublishOutcome,
  republish,
} from './republish.js';

export interface RedriveDependencies extends Destination, QueryContext {
  readonly sqs: Pick<SQSClient, 'send'>;
  readonly streams: Pick<DynamoDBStreamsClient, 'send'>;
}

/** Long enough to re-read and publish a batch; a message left undeleted reappears after. */
const visibilityTimeoutSeconds = 900;

/** What became of one dead-letter message. */
export interface MessageOutcome {
  readonly messageId: string;
  /** Where its records were read: the stream while it holds them, else the table. */
  readonly source: 'stream' | 'table' | 'none';
  readonly deleted: boolean;
  readonly outcome?: RepublishOutcome;
  readonly problem?: string;
  /** Why it was kept: its content (an operator's job) or a failure (the next run may pass). */
  readonly keptFor?: 'content' | 'failure';
}

/**
 * Drains the dead-letter queue: each batch is re-read (stream, else table) and published as the
 * consumer would; a message is deleted only when all of it was published, else kept for the next
 * run. Running twice republishes, which consumers dedupe. Each message's outcome goes to `found`
 * as it is known; the counts are returned.
 */
export async function redriveQueue(
  dependencies: RedriveDependencies,
  { queueUrl, maxMessages = Number.POSITIVE_INFINITY }: { queueUrl: string; maxMessages?: number },
  found: (outcome: MessageOutcome) => void | Promise<void> = () => {},
): Promise<{ messages: number; deleted: number }> {
  const { sqs } = dependencies;
  const counts = { messages: 0, deleted: 0 };
  const kept: Message[] = [];
  const seen = new Set<string>();
  try {
    while (counts.messages < maxMessages) {
      const { Messages: messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: Math.min(10, maxMessages - counts.messages),
          VisibilityTimeout: visibilityTimeoutSeconds,
          WaitTimeSeconds: 1,
        }),
      );
      const fresh = messages.filter((message) => !seen.has(message.MessageId ?? ''));
      if (fresh.length === 0) break;
      for (const message of fresh) {
        seen.add(message.MessageId ?? '');
        const outcome = await redriveMessage(dependencies, queueUrl, message);
        counts.messages += 1;
        if (outcome.deleted) counts.deleted += 1;
        else kept.push(message);
        await found(outcome);
      }
    }
  } finally {
    // Kept messages become visible again now, so the next run need not wait out the timeout.
    for (const { ReceiptHandle } of kept) {
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrl,
          ReceiptHandle,
          VisibilityTimeout: 0,
        }),
      );
    }
  }
  return counts;
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
    const problem = (error as Error).message;
    return { messageId, source: 'none', deleted: false, problem, keptFor: 'content' };
  }
  let source: MessageOutcome['source'] = 'stream';
  let records: DynamoDBRecord[];
  try {
    records = await readStreamBatch(dependencies.streams, info);
  } catch (error) {
    // Trimmed, expired, or the stream is gone: it no longer holds the batch; the table does.
    const gone = [TrimmedDataAccessException, ExpiredIteratorException, ResourceNotFoundException];
    if (!gone.some((type) => error instanceof type)) {
      const problem = (error as Error).message;
      return { messageId, source: 'none', deleted: false, problem, keptFor: 'failure' };
    }
    source = 'table';
    records = await tableRecords(dependencies, info);
  }
  const outcome = await republish(records, dependencies);
  const deleted = outcome.failed.length === 0 && outcome.unpublishable.length === 0;
  if (deleted) {
    const { ReceiptHandle } = message;
    await dependencies.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle }));
  }
  if (deleted) return { messageId, source, deleted, outcome };
  const keptFor = outcome.failed.length > 0 ? 'failure' : 'content';
  return { messageId, source, deleted, outcome, keptFor };
}

/** Lambda's on-failure message for a stream holds where the batch is, not its records. */
const batchInfoSchema = z.object({
  streamArn: z.string(),
  shardId: z.string(),
  startSequenceNumber: z.string(),
  endSequenceNumber: z.string(),
  approximateArrivalOfFirstRecord: z.iso.datetime({ offset: true }),
  approximateArrivalOfLastRecord: z.iso.datetime({ offset: true }),
});
type StreamBatchInfo = z.output<typeof batchInfoSchema>;

function streamBatchInfo(messageBody: string): StreamBatchInfo {
  let body: unknown;
  try {
    body = JSON.parse(messageBody);
  } catch {
    throw new UsageError('the message is not JSON');
  }
  const info = (body as { DDBStreamBatchInfo?: unknown } | null)?.DDBStreamBatchInfo;
  const result = z.safeParse(batchInfoSchema, info);
  if (!result.success) {
    throw new UsageError('the message holds no DDBStreamBatchInfo: not from the stream consumer');
  }
  return result.data;
}

/** Pages in a row that return nothing before an open shard is taken to hold no more. */
const maxEmptyPages = 5;

/** The batch's records, first to last sequence number, read as Lambda's poller reads them. */
async function readStreamBatch(
  streams: Pick<DynamoDBStreamsClient, 'send'>,
  info: StreamBatchInfo,
): Promise<DynamoDBRecord[]> {
  const end = BigInt(info.endSequenceNumber);
  const { ShardIterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: info.streamArn,
      ShardId: info.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: info.startSequenceNumber,
    }),
  );
  const records: DynamoDBRecord[] = [];
  let iterator = ShardIterator;
  let emptyPages = 0;
  while (iterator !== undefined && emptyPages < maxEmptyPages) {
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
    const fetched = page.Records ?? [];
    emptyPages = fetched.length === 0 ? emptyPages + 1 : 0;
    for (const record of fetched) {
      if (BigInt(record.dynamodb?.SequenceNumber ?? '0') > end) return records;
      records.push(lambdaRecord(record, info.streamArn));
      if (record.dynamodb?.SequenceNumber === info.endSequenceNumber) return records;
    }
    iterator = page.NextShardIterator;
  }
  throw new Error(
    `the stream ended before the batch's last record ${info.endSequenceNumber}; it was not redriven`,
  );
}

/** The stream API's record as Lambda delivers it (see lambdaJson), with the stream's ARN. */
export function lambdaRecord(record: StreamApiRecord, streamArn: string): DynamoDBRecord {
  return { ...lambdaJson<DynamoDBRecord>(record), eventSourceARN: streamArn };
}

/** `receivedAt` is stamped before the write: at most a function timeout before the stream. */
const receiveToStreamMarginMs = 5 * 60_000;

/**
 * The table still holds what a trimmed batch carried (items change only by an operator's
 * correction, and then hold the corrected transaction), not which items it was: everything
 * received around its arrival is republished; consumers dedupe the extras.
 */
async function tableRecords(
  context: QueryContext,
  info: StreamBatchInfo,
): Promise<DynamoDBRecord[]> {
  const since = Date.parse(info.approximateArrivalOfFirstRecord) - receiveToStreamMarginMs;
  const until = Date.parse(info.approximateArrivalOfLastRecord) + 1;
  const window = timeWindow(new Date(since).toISOString(), new Date(until).toISOString());
  const records: DynamoDBRecord[] = [];
  for await (const items of itemsInWindow(context, window)) {
    records.push(...items.map(insertRecord));
  }
  for await (const item of conflictItems(context, window)) records.push(insertRecord(item));
  return records;
}
