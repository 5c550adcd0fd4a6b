import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { loadStreamConsumerConfig } from '../../lambda/config/config.js';
import { createStreamConsumer } from '../../lambda/create-stream-consumer.js';
import { transactionItem } from '../../lambda/storage/transaction-item.js';
import { testCredentials, testRegion } from '../support/engines.js';
import { lambdaContext, transaction } from '../support/fixtures.js';
import { recordOf, streamRecord } from '../support/stream-records.js';

describe('createStreamConsumer', () => {
  it('builds its own EventBridge client from the config and the connection it is given', async () => {
    // Prepare: nothing listens on port 1, so the one attempt allowed fails at once.
    const config = loadStreamConsumerConfig({
      EVENT_BUS_NAME: 'transactions',
      EVENTBRIDGE_MAX_ATTEMPTS: '1',
      EVENTBRIDGE_TIMEOUT_MS: '1000',
    });
    const consumer = createStreamConsumer(config, {
      eventBridge: {
        endpoint: 'http://127.0.0.1:1',
        region: testRegion,
        credentials: testCredentials,
      },
    });
    const record = streamRecord('INSERT', transactionItem(recordOf(transaction())));

    // Act
    const response = await consumer.handler(
      { Records: [record] } satisfies DynamoDBStreamEvent,
      lambdaContext(),
    );
    consumer.close();

    // Assess: the record is reported for redelivery, not lost and not a crash.
    expect(response.batchItemFailures).toEqual([
      { itemIdentifier: record.dynamodb?.SequenceNumber },
    ]);
  });
});
