import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventBridgePublisher } from '../../lambda/events/event-publisher.js';
import { createEventBridgeClient } from '../../lambda/events/eventbridge-client.js';
import { transactionItem } from '../../lambda/storage/transaction-item.js';
import { startFaultProxy } from '../../scripts/dev/fault-proxy/fault-proxy.js';
import { type AwsStandIn, startAwsStandIn } from '../support/aws-stand-ins.js';
import { transaction } from '../support/fixtures.js';
import { streamConsumerWith } from '../support/stream-consumer.js';
import { recordOf, streamRecord } from '../support/stream-records.js';
import * as matrix from './support/fault-matrix.js';

/**
 * The fault matrix's EventBridge rows: the stream consumer publishing through a small HTTP
 * stand-in behind the fault proxy, failing each way, with a Lambda-like context whose remaining
 * time runs down. Every cell must return the unpublished records as batchItemFailures before the
 * deadline, and publish nothing it reports as failed that a redelivery would not publish again.
 * The figures go to docs/failure-handling.md.
 */
const rows = matrix.collectRows();

describe('EventBridge faults', () => {
  let eventBridge: AwsStandIn;
  beforeAll(async () => {
    eventBridge = await startAwsStandIn();
  });
  afterAll(() => eventBridge.stop());

  let batch = 0;
  function inserts(count: number): DynamoDBRecord[] {
    batch += 1;
    return Array.from({ length: count }, (_, index) =>
      streamRecord(
        'INSERT',
        transactionItem(recordOf(transaction({ reference: `matrix-${batch}-${index}` }))),
      ),
    );
  }

  function consumer() {
    const client = createEventBridgeClient({ timeoutMs: matrix.attemptTimeoutMs });
    const publisher = new EventBridgePublisher(client, {
      attemptTimeoutMs: matrix.attemptTimeoutMs,
      maxEntryAttempts: 3,
    });
    return streamConsumerWith(publisher, { timeBudgetMarginMs: matrix.marginMs }).handler;
  }

  it.each(matrix.faults)(
    'returns the unpublished records as batchItemFailures before the deadline when EventBridge %s',
    async (fault) => {
      const { endpoint, proxy } = await matrix.endpointWith(
        fault,
        eventBridge.endpoint,
        'eventbridge',
      );
      vi.stubEnv('AWS_ENDPOINT_URL_EVENTBRIDGE', endpoint);
      const records = inserts(25);
      const publishedBefore = eventBridge.published.length;
      try {
        const { result, ms } = await matrix.timed(() =>
          consumer()({ Records: records }, matrix.runningDown(matrix.remainingMs)),
        );
        expect(result.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual(
          records.map((record) => record.dynamodb?.SequenceNumber),
        );
        expect(ms).toBeLessThan(matrix.remainingMs - matrix.marginMs / 2);
        await proxy?.idle();
        const landed = eventBridge.published.length - publishedBefore;
        // Only a call held past its timeout can land; it is reported failed, so the stream's
        // retry publishes those entries again (consumers dedupe by reference).
        expect(landed).toBe(fault === 'delay' ? 10 : 0);
        rows.push({
          dependency: 'EventBridge (stream consumer, 25 records)',
          fault: matrix.faultNames[fault],
          answer: '25 batchItemFailures',
          retryAfter: 'n/a',
          maxMs: ms,
          effect:
            fault === 'delay'
              ? 'the 10 entries of the timed-out call landed late (published again on redelivery)'
              : 'nothing published',
        });
      } finally {
        await proxy?.stop();
      }
    },
  );

  it('publishes what fits in the time left and returns the rest, when EventBridge is slow', async () => {
    // Every call answers after 300 ms (inside the attempt timeout): 1,000 ms of budget holds two.
    const proxy = await startFaultProxy({
      upstream: eventBridge.endpoint,
      service: 'eventbridge',
      delayMs: 300,
      plan: () => 'delay',
    });
    vi.stubEnv('AWS_ENDPOINT_URL_EVENTBRIDGE', proxy.endpoint);
    const records = inserts(45);
    const publishedBefore = eventBridge.published.length;
    try {
      const { result, ms } = await matrix.timed(() =>
        consumer()({ Records: records }, matrix.runningDown(matrix.marginMs + 1_000)),
      );
      await proxy.idle();
      const published = eventBridge.published.length - publishedBefore;
      expect(published % 10).toBe(0);
      expect(published).toBeGreaterThan(0);
      expect(result.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual(
        records.slice(published).map((record) => record.dynamodb?.SequenceNumber),
      );
      expect(ms).toBeLessThan(1_000 + matrix.marginMs / 2);
      rows.push({
        dependency: 'EventBridge (stream consumer, 45 records)',
        fault: 'every call takes 300 ms, 1,500 ms left',
        answer: `${result.batchItemFailures.length} batchItemFailures`,
        retryAfter: 'n/a',
        maxMs: ms,
        effect: `${published} published once, the rest left for redelivery`,
      });
    } finally {
      await proxy.stop();
    }
  });
});
