import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { type FieldDeclarations, transactionFields } from '../callback/transaction-fields.js';
import {
  conflictCountAttributes,
  lastChanges,
  settlementAttributes,
} from '../settle/settlement.js';
import { type Item, readTransactionAttributes } from '../storage/transaction-item.js';
import { UnpublishableRecordError } from './errors.js';
import {
  fromStreamImage,
  type ImageObject,
  type StreamImage,
  withExtraDecoded,
} from './stream-image.js';
import { correctedDetail } from './transaction-corrected.js';
import {
  detailSchemas,
  detailTypes,
  eventSource,
  type TransactionCompletedDetail,
  type TransactionConflictDetail,
  type TransactionEvent,
} from './transaction-event.js';

/**
 * The event a stream record stands for, or `undefined` for none.
 *
 * The receiver only ever inserts transactions, and a reference once (a conditional write), so an
 * INSERT of a `record: 'transaction'` item is exactly "recorded for the first time". A duplicate
 * delivery writes nothing and so produces no record at all; MODIFY and REMOVE (an operator's
 * hand, a future TTL) are not news for consumers. An INSERT of a `record: 'conflict'` item is one
 * conflicting content for a reference (the same conflict again is counted, a MODIFY), unless the
 * content was already settled by an operator. The one MODIFY that is news is an operator's
 * correction (`npm run settle`), which says so in `lastChange`: `Transaction Corrected`.
 *
 * The item is read under `fields` (the real declaration unless given): an item stored before a
 * field was declared publishes that field's value, kept until then as an extra member.
 *
 * @throws UnpublishableRecordError when the record claims to be one of ours but is not valid.
 */
export function eventForRecord(
  record: DynamoDBRecord,
  fields: FieldDeclarations = transactionFields,
): TransactionEvent | undefined {
  if (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') return undefined;
  const image = record.dynamodb?.NewImage;
  if (image === undefined) {
    throw new UnpublishableRecordError(
      `The ${record.eventName} record has no new image; the table stream must be NEW_IMAGE or NEW_AND_OLD_IMAGES`,
    );
  }
  const item = fromStreamImage(image);
  if (record.eventName === 'MODIFY') {
    const corrected =
      item.record === 'transaction' &&
      item[settlementAttributes.lastChange] === lastChanges.correction;
    return corrected
      ? { detailType: detailTypes.corrected, detail: correctedDetail(item) }
      : undefined;
  }
  // Content an operator already settled (a replaced version sent again): no news.
  if (item[conflictCountAttributes.afterSettlement] === true) return undefined;
  const schemas = detailSchemas(fields);
  switch (item.record) {
    case 'transaction':
      return {
        detailType: detailTypes.completed,
        detail: parseDetail<TransactionCompletedDetail>(
          schemas.completed,
          withExtraDecoded(read(image, fields)),
        ),
      };
    case 'conflict': {
      const transaction = image.transaction?.M;
      if (transaction === undefined) {
        throw new UnpublishableRecordError('The conflict item has no `transaction` map');
      }
      // The item's own `reference` is the derived audit key; the claimed one is inside.
      return {
        detailType: detailTypes.conflict,
        detail: parseDetail<TransactionConflictDetail>(schemas.conflict, {
          ...withExtraDecoded(read(transaction, fields)),
          fingerprint: item.fingerprint ?? null,
          receivedAt: item.receivedAt ?? null,
          hashResult: item.hashResult ?? null,
          requestId: item.requestId ?? null,
        }),
      };
    }
    default:
      // Some other kind of item: not a hand-off.
      return undefined;
  }
}

/** The PutEvents entry for an event. The detail is JSON of strings: no number passes a double. */
export function putEventsEntry(
  event: TransactionEvent,
  eventBusName: string,
): PutEventsRequestEntry {
  return {
    EventBusName: eventBusName,
    Source: eventSource,
    DetailType: event.detailType,
    Detail: JSON.stringify(event.detail),
  };
}

/** The image's transaction attributes as the declaration reads them (see transaction-item.ts). */
function read(image: StreamImage, fields: FieldDeclarations): ImageObject {
  // The stream's and the SDK's attribute values are the same JSON; only their types differ.
  return fromStreamImage(readTransactionAttributes(image as Item, fields) as StreamImage);
}

function parseDetail<Detail>(schema: z.ZodMiniType, item: ImageObject): Detail {
  const result = z.safeParse(schema, item);
  // The schema is the declaration's; its output is the detail type of the real declaration.
  if (result.success) return result.data as Detail;
  throw new UnpublishableRecordError(
    'The stream image is not a valid transaction',
    result.error.issues.map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`),
  );
}
