import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { describe } from 'vitest';
import {
  createTestTable,
  type Engine,
  engineClientConfig,
  engines,
  type TestTable,
} from './engines.js';
import { readStream } from './table-stream.js';

/**
 * The table stream, on the one engine that has it: DynamoDB Local (dynalite has no streams API).
 * Without Java the suites that need it are skipped, loudly; CI requires Java.
 */
export const streamEngine: Engine = 'dynamodb-local';
const hasStreams = engines.includes(streamEngine);

/** `describe`, skipped with a warning when DynamoDB Local is not running. */
export function describeOnStreams(name: string, fn: () => void): void {
  if (!hasStreams) console.warn(`SKIPPED: ${name}: needs DynamoDB Local (Java) for streams.`);
  describe.skipIf(!hasStreams)(name, fn);
}

export interface StreamTable {
  readonly table: TestTable;
  readonly streams: DynamoDBStreamsClient;
  readonly streamArn: string;
  /** The stream's records so far, from the oldest, as Lambda's poller hands them over. */
  records(): ReturnType<typeof readStream>;
  /** The id of the stream's first shard (a new table's only one). */
  shardId(): Promise<string>;
  /** Drops the table and closes the stream's client. */
  drop(): Promise<void>;
}

/** A fresh table on DynamoDB Local with the stack's stream, and a client to read the stream. */
export async function createStreamTable(): Promise<StreamTable> {
  const table = await createTestTable(streamEngine);
  const streams = new DynamoDBStreamsClient(engineClientConfig(streamEngine));
  const drop = async () => {
    streams.destroy();
    await table.drop();
  };
  const { Table } = await table.client.send(
    new DescribeTableCommand({ TableName: table.tableName }),
  );
  const streamArn = Table?.LatestStreamArn;
  if (streamArn === undefined) {
    await drop();
    throw new Error('the table has no stream');
  }
  return {
    table,
    streams,
    streamArn,
    records: () => readStream(streams, streamArn),
    async shardId() {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn }),
      );
      return StreamDescription?.Shards?.[0]?.ShardId ?? '';
    },
    drop,
  };
}
