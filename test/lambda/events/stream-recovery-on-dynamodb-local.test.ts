import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { expect, it } from 'vitest';
import { eventForRecord } from '../../../lambda/events/stream-record-event.js';
import { describeOnStreams } from '../../support/dynamodb-local-stream.js';
import { transaction } from '../../support/fixtures.js';
import { readStream } from '../../support/table-stream.js';
import { consumer, handOffTables } from './support/stream-hand-off.js';

/**
 * Recovering a batch the stream consumer could not publish, on DynamoDB Local's real stream:
 * re-read from the shard and sequence numbers its dead-letter message names, or rebuilt from the
 * table once the stream no longer holds it. What redrive and replay rely on.
 */
const setUp = handOffTables();

describeOnStreams('table stream to events, on DynamoDB Local', () => {
  it('redrives a failed batch from the shard and sequence numbers its DLQ message names', async () => {
    const table = await setUp();
    const references = [];
    for (let i = 0; i < 3; i++) {
      const fields = transaction();
      references.push(fields.reference);
      await table.post(fields);
    }
    const records = await table.records();
    const failing = consumer({ rule: () => 'AccessDeniedException' });
    const { batchItemFailures } = await failing.invoke(records);
    // What an on-failure destination receives once retries are spent: metadata, not records.
    const batchInfo = {
      shardId: await table.shardId(),
      startSequenceNumber: batchItemFailures[0]?.itemIdentifier,
      endSequenceNumber: batchItemFailures.at(-1)?.itemIdentifier,
      batchSize: batchItemFailures.length,
      streamArn: table.streamArn,
    };

    const reread = await readStream(table.streams, batchInfo.streamArn, {
      shardId: batchInfo.shardId,
      startingSequenceNumber: batchInfo.startSequenceNumber,
    });
    const batch = reread.slice(0, batchInfo.batchSize);
    const redrive = consumer();
    const response = await redrive.invoke(batch);

    expect(batch.at(-1)?.dynamodb?.SequenceNumber).toBe(batchInfo.endSequenceNumber);
    expect(response.batchItemFailures).toEqual([]);
    expect(redrive.eventBridge.published).toEqual(references);
  });

  it('republishes from the table by reference, once the stream no longer holds the record', async () => {
    const table = await setUp();
    const fields = transaction();
    await table.post(fields);
    const [streamed] = await table.records();
    const { Item } = await table.dynamodb.send(
      new GetItemCommand({
        TableName: table.tableName,
        Key: { reference: { S: String(fields.reference) } },
        ConsistentRead: true,
      }),
    );

    // The record republishing from the table builds: the item, as read, as an INSERT's new image.
    const rebuilt: DynamoDBRecord = {
      eventName: 'INSERT',
      dynamodb: { NewImage: JSON.parse(JSON.stringify(Item)), SequenceNumber: 'redrive-1' },
    };

    expect(eventForRecord(rebuilt)).toEqual(eventForRecord(streamed as DynamoDBRecord));
  });
});
