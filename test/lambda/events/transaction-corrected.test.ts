import { describe, expect, it } from 'vitest';
import { UnpublishableRecordError } from '../../../lambda/events/errors.js';
import { eventForRecord } from '../../../lambda/events/stream-record-event.js';
import { transactionCorrectedDetailSchema } from '../../../lambda/events/transaction-corrected.js';
import {
  conflictItem,
  type Item,
  transactionItem,
} from '../../../lambda/storage/transaction-item.js';
import { transaction } from '../../support/fixtures.js';
import { recordOf, streamRecord } from '../../support/stream-records.js';

/**
 * A transaction item as a correction leaves it (see scripts/operations/settle/settle-update.ts; the same
 * mapping on items DynamoDB Local wrote is tested in stream-on-dynamodb-local.test.ts).
 */
function correctedItem(lastChange = 'correction'): { item: Item; before: Item; after: Item } {
  const fields = transaction({ reference: 'ref-corrected', amount: 100 });
  const before = transactionItem(recordOf(fields));
  const after = transactionItem(
    recordOf({ ...fields, amount: 120, note: 'after review' }, { requestId: 'req-2' }),
  );
  const { rawBody, fingerprint, hashResult, keyId, requestId, sourceIp, receivedAt } = before;
  const content = Object.fromEntries(
    [
      'id',
      'username',
      'firstName',
      'lastName',
      'amount',
      'currency',
      'type',
      'status',
      'message',
      'reference',
    ].map((name) => [name, before[name] as Item[string]]),
  );
  const item: Item = {
    ...after,
    receivedAt: receivedAt as Item[string],
    version: { N: '2' },
    revision: { N: '1' },
    lastChange: { S: lastChange },
    correction: {
      M: {
        version: { N: '2' },
        settledAt: { S: '2026-03-16T10:02:11.204Z' },
        settledBy: { S: 'arn:aws:sts::123456789012:assumed-role/ops/jane' },
        reason: { S: 'OPS-7' },
        deliveredAt: { S: '2026-03-15T16:40:02.117Z' },
      },
    },
    history: {
      L: [
        {
          M: {
            version: { N: '1' },
            transaction: { M: content },
            deliveredAt: receivedAt as Item[string],
            supersededAt: { S: '2026-03-16T10:02:11.204Z' },
            supersededBy: { S: 'arn:aws:sts::123456789012:assumed-role/ops/jane' },
            reason: { S: 'OPS-7' },
            ...{ rawBody, fingerprint, hashResult, keyId, requestId, sourceIp },
          } as Item,
        },
      ],
    },
  };
  return { item, before, after };
}

describe('Transaction Corrected', () => {
  it("turns a correction's MODIFY into one event with the version before and after", () => {
    const { item, before, after } = correctedItem();

    const event = eventForRecord(streamRecord('MODIFY', item));

    expect(event?.detailType).toBe('Transaction Corrected');
    const detail = transactionCorrectedDetailSchema.parse(event?.detail);
    expect(detail).toMatchObject({
      reference: 'ref-corrected',
      version: 2,
      correctedAt: '2026-03-16T10:02:11.204Z',
      before: { amount: '100', extra: {}, fingerprint: before.fingerprint?.S },
      after: {
        amount: '120',
        extra: { note: 'after review' },
        fingerprint: after.fingerprint?.S,
        receivedAt: '2026-03-15T16:40:02.117Z',
      },
    });
    // Who and why stay in the table; nor does the raw body travel.
    expect(JSON.stringify(event?.detail)).not.toMatch(/OPS-7|assumed-role|rawBody/);
  });

  it('publishes nothing for a MODIFY that is a settlement, or any other change to a corrected item', () => {
    expect(
      eventForRecord(streamRecord('MODIFY', correctedItem('settlement').item)),
    ).toBeUndefined();
    const conflict = conflictItem(recordOf(transaction()));
    expect(eventForRecord(streamRecord('MODIFY', conflict))).toBeUndefined();
  });

  it('publishes nothing for the first keeping of content already settled', () => {
    const conflict = { ...conflictItem(recordOf(transaction())), afterSettlement: { BOOL: true } };

    expect(eventForRecord(streamRecord('INSERT', conflict))).toBeUndefined();
  });

  it('refuses a correction without the version before, or one that breaks the schema', () => {
    const { item } = correctedItem();
    const withoutHistory = { ...item, history: { L: [] } };
    const badVersion = { ...item, version: { N: '1' } };

    expect(() => eventForRecord(streamRecord('MODIFY', withoutHistory))).toThrow(
      UnpublishableRecordError,
    );
    expect(() => eventForRecord(streamRecord('MODIFY', badVersion))).toThrow(/version/);
  });

  it('has a detail schema that refuses a detail without before, or with an invalid after', () => {
    const { item } = correctedItem();
    const detail = eventForRecord(streamRecord('MODIFY', item))?.detail as Record<string, unknown>;

    expect(transactionCorrectedDetailSchema.safeParse(detail).success).toBe(true);
    const { before: _before, ...withoutBefore } = detail;
    expect(transactionCorrectedDetailSchema.safeParse(withoutBefore).success).toBe(false);
    const badAfter = { ...detail, after: { ...(detail.after as object), currency: 'lira' } };
    expect(transactionCorrectedDetailSchema.safeParse(badAfter).success).toBe(false);
  });
});
