import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { type TimeBudget, unlimitedBudget } from '../budget/time-budget.js';
import type { JsonLogger } from '../observability/json-logger.js';
import { eventMetrics } from '../observability/metric-names.js';
import { UnpublishableRecordError } from './errors.js';
import type { EventPublisher } from './event-publisher.js';
import { eventForRecord, putEventsEntry } from './stream-record-event.js';
import type { TransactionEvent } from './transaction-event.js';

export interface PublishStreamRecordsDependencies {
  readonly publisher: EventPublisher;
  readonly eventBusName: string;
  readonly logger: JsonLogger;
  readonly metrics: Metrics;
}

interface Planned {
  /** Position of the stream record in the batch. */
  readonly position: number;
  readonly event: TransactionEvent;
  readonly entry: PutEventsRequestEntry;
}

/**
 * Turns a batch of table stream records into events, in stream order, and says which records to
 * deliver again.
 *
 * On failure it reports every record from the first failed one to the end of the batch. Lambda
 * resumes a stream from the lowest sequence number reported, whatever else is listed, so those
 * records come back in any case; listing them all says exactly that, and the publisher does not
 * send past a failed request, so little is published twice. With `bisectBatchOnError` Lambda
 * splits the batch at that record, so a record that keeps failing is retried alone and ends in
 * the dead-letter queue while the records behind it go on.
 */
export function publishStreamRecords(dependencies: PublishStreamRecordsDependencies) {
  const { publisher, eventBusName, logger, metrics } = dependencies;

  return async function publish(
    records: readonly DynamoDBRecord[],
    budget: TimeBudget = unlimitedBudget(),
  ): Promise<DynamoDBBatchResponse> {
    let firstFailure = records.length;
    const planned: Planned[] = [];
    for (const [position, record] of records.entries()) {
      try {
        const event = eventForRecord(record);
        if (event !== undefined)
          planned.push({ position, event, entry: putEventsEntry(event, eventBusName) });
      } catch (error) {
        if (!(error instanceof UnpublishableRecordError)) throw error;
        metrics.addMetric(eventMetrics.unpublishable, MetricUnit.Count, 1);
        logger.error('stream record cannot be published', {
          sequenceNumber: record.dynamodb?.SequenceNumber,
          eventID: record.eventID,
          problem: error.message,
        });
        firstFailure = position;
        break;
      }
    }

    const outcomes = await publisher.publish(
      planned.map((item) => item.entry),
      budget,
    );
    let published = 0;
    let failed = 0;
    outcomes.forEach((outcome, index) => {
      const { position, event } = planned[index] as Planned;
      if (outcome.status === 'published') {
        published += 1;
        return;
      }
      firstFailure = Math.min(firstFailure, position);
      if (outcome.status === 'failed') {
        failed += 1;
        logger.error('event not published', {
          sequenceNumber: records[position]?.dynamodb?.SequenceNumber,
          reference: event.detail.reference,
          detailType: event.detailType,
          errorCode: outcome.errorCode,
        });
      }
    });
    if (published > 0) metrics.addMetric(eventMetrics.published, MetricUnit.Count, published);
    if (failed > 0) metrics.addMetric(eventMetrics.failed, MetricUnit.Count, failed);

    return { batchItemFailures: records.slice(firstFailure).map(itemFailure) };
  };
}

function itemFailure(record: DynamoDBRecord): { itemIdentifier: string } {
  const sequenceNumber = record.dynamodb?.SequenceNumber;
  // Without a sequence number Lambda could not resume at this record; failing the whole
  // invocation makes it retry the batch instead.
  if (sequenceNumber === undefined || sequenceNumber === '') {
    throw new Error('A failed stream record has no SequenceNumber to report');
  }
  return { itemIdentifier: sequenceNumber };
}
