import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { lambdaRecord } from '../../scripts/operations/events/redrive-queue.js';

/**
 * Reads a table's stream the way Lambda's poller does (DescribeStream, GetShardIterator,
 * GetRecords), from the oldest record, and hands the records over in the Lambda event's shape.
 */
export async function readStream(
  streams: DynamoDBStreamsClient,
  streamArn: string,
  options: { startingSequenceNumber?: string; shardId?: string } = {},
): Promise<DynamoDBRecord[]> {
  const description = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  const shardIds = options.shardId
    ? [options.shardId]
    : (description.StreamDescription?.Shards ?? []).flatMap((shard) => shard.ShardId ?? []);
  const records: DynamoDBRecord[] = [];
  for (const shardId of shardIds) {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(options.startingSequenceNumber
          ? {
              ShardIteratorType: 'AT_SEQUENCE_NUMBER',
              SequenceNumber: options.startingSequenceNumber,
            }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    let iterator = ShardIterator;
    // An open shard always hands out a next iterator; an empty page means "caught up".
    while (iterator !== undefined) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      const fetched = page.Records ?? [];
      records.push(...fetched.map((record) => lambdaRecord(record, streamArn)));
      iterator = fetched.length > 0 ? page.NextShardIterator : undefined;
    }
  }
  return records;
}
