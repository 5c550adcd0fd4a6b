import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll } from 'vitest';
import { EventBridgePublisher } from '../../../../lambda/events/event-publisher.js';
import type { SerializableValue } from '../../../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../../../lambda/storage/dynamodb-transaction-store.js';
import { createStreamTable } from '../../../support/dynamodb-local-stream.js';
import { type FakeEventBridgeOptions, fakeEventBridge } from '../../../support/fake-eventbridge.js';
import { callbackEvent, lambdaContext, signed } from '../../../support/fixtures.js';
import { receiverWith } from '../../../support/receiver.js';
import { streamConsumerWith } from '../../../support/stream-consumer.js';

/**
 * The hand-off on DynamoDB Local, both ends real: the receiver writing callbacks into a table
 * with the stack's stream, and the stream consumer publishing its records to a fake EventBridge.
 */

/**
 * Registers the dropping of every table it makes after the file's tests, and returns a maker of
 * fresh tables with the stack's stream, the receiver writing to each, and a stream reader.
 */
export function handOffTables() {
  const made: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(made.splice(0).map((drop) => drop()));
  });
  return async function setUp() {
    const { table, streams, streamArn, records, shardId, drop } = await createStreamTable();
    made.push(drop);
    const { tableName, client: dynamodb } = table;
    const receive = receiverWith(new DynamoDbTransactionStore(dynamodb, tableName));
    return {
      dynamodb,
      streams,
      tableName,
      streamArn,
      shardId,
      /** POSTs a signed callback to the real receiver; the response status. */
      post: async (fields: Record<string, SerializableValue>) =>
        (await receive(callbackEvent(signed(fields)))).statusCode,
      records,
    };
  };
}

/** The stream consumer around a fake EventBridge (see stream-batch-handler.test.ts). */
export function consumer(options: FakeEventBridgeOptions = {}) {
  const eventBridge = fakeEventBridge(options);
  const publisher = new EventBridgePublisher(eventBridge.client, { backoffMs: () => 0 });
  const { handler } = streamConsumerWith(publisher);
  const invoke = (records: DynamoDBRecord[]) => handler({ Records: records }, lambdaContext());
  const details = () =>
    eventBridge.requests.flat().map((entry) => ({
      detailType: entry.DetailType,
      detail: JSON.parse(entry.Detail ?? '{}') as Record<string, unknown>,
    }));
  return { invoke, eventBridge, details };
}
