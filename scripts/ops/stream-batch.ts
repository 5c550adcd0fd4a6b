import {
  type DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  type _Record as StreamApiRecord,
  TrimmedDataAccessException,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { InputError } from './input-error.js';
import { lambdaImage } from './republish.js';

/**
 * Where a dead-lettered batch sits in the stream: Lambda's on-failure message for a stream
 * source holds the batch's location, not its records.
 */
const batchInfoSchema = z.object({
  streamArn: z.string(),
  shardId: z.string(),
  startSequenceNumber: z.string(),
  endSequenceNumber: z.string(),
  approximateArrivalOfFirstRecord: z.iso.datetime({ offset: true }),
  approximateArrivalOfLastRecord: z.iso.datetime({ offset: true }),
});
export type StreamBatchInfo = z.output<typeof batchInfoSchema>;

export function streamBatchInfo(messageBody: string): StreamBatchInfo {
  let body: unknown;
  try {
    body = JSON.parse(messageBody);
  } catch {
    throw new InputError('the message is not JSON');
  }
  const info = (body as { DDBStreamBatchInfo?: unknown } | null)?.DDBStreamBatchInfo;
  const result = z.safeParse(batchInfoSchema, info);
  if (!result.success) {
    throw new InputError('the message holds no DDBStreamBatchInfo: not from the stream consumer');
  }
  return result.data;
}

/** Stream errors that mean "the stream no longer holds this batch": read the table instead. */
export function streamNoLongerHolds(error: unknown): boolean {
  return (
    error instanceof TrimmedDataAccessException ||
    error instanceof ExpiredIteratorException ||
    error instanceof ResourceNotFoundException
  );
}

/** Pages in a row that return nothing before an open shard is taken to hold no more. */
const maxEmptyPages = 5;

/**
 * The batch's records, read from the stream as Lambda's poller reads them: from the first
 * sequence number to the last, inclusive, in the Lambda event's shape. Throws what the stream
 * throws when it no longer holds them (see {@link streamNoLongerHolds}).
 */
export async function readStreamBatch(
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

/**
 * The stream API's record as Lambda delivers it: the same JSON, except the creation time in epoch
 * seconds and the stream's ARN added.
 */
export function lambdaRecord(record: StreamApiRecord, streamArn: string): DynamoDBRecord {
  const {
    ApproximateCreationDateTime: created,
    NewImage,
    OldImage,
    Keys,
    ...rest
  } = record.dynamodb ?? {};
  return {
    ...(record.eventID ? { eventID: record.eventID } : {}),
    ...(record.eventName ? { eventName: record.eventName } : {}),
    ...(record.eventVersion ? { eventVersion: record.eventVersion } : {}),
    ...(record.eventSource ? { eventSource: record.eventSource } : {}),
    ...(record.awsRegion ? { awsRegion: record.awsRegion } : {}),
    eventSourceARN: streamArn,
    dynamodb: {
      ...rest,
      ...(Keys ? { Keys: lambdaImage(Keys) } : {}),
      ...(NewImage ? { NewImage: lambdaImage(NewImage) } : {}),
      ...(OldImage ? { OldImage: lambdaImage(OldImage) } : {}),
      ...(created ? { ApproximateCreationDateTime: created.getTime() / 1000 } : {}),
    },
  };
}
