import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { FieldError } from '../../lambda/callback/transaction-schema.js';
import type { RefusalRecord } from '../../lambda/refusals/refusal.js';
import { refusalsTable } from '../../lambda/refusals/refusals-table.js';

type Item = Record<string, AttributeValue>;

/** What the list view shows of a kept refusal: the index entry, no body, no headers. */
export type RefusalSummary = Pick<
  KeptRefusal,
  | 'digest'
  | 'lastReceivedAt'
  | 'deliveries'
  | 'status'
  | 'problem'
  | 'reference'
  | 'bodyBytes'
  | 'bodyKept'
>;

/** A kept refusal read back: what the receiver kept, with its deliveries and expiry. */
export interface KeptRefusal extends Omit<RefusalRecord, 'receivedAt'> {
  readonly firstReceivedAt: string;
  readonly lastReceivedAt: string;
  readonly deliveries: number;
  /** Whether `body` is all of the `bodyBytes` received. */
  readonly bodyKept: 'whole' | 'part';
  /** Whether `headers` are all that were received (less credentials), or some were left out. */
  readonly headersKept: 'whole' | 'part';
  /** When DynamoDB's TTL may delete it. */
  readonly expiresAt: string;
}

/** An index entry (or an item) as the list shows it. */
export function summary(item: Item): RefusalSummary {
  const text = (name: string) => item[name]?.S;
  const number = (name: string) => Number(item[name]?.N ?? 0);
  const reference = text('reference');
  return {
    digest: text(refusalsTable.partitionKey) ?? '',
    lastReceivedAt: text(refusalsTable.lastReceivedAt) ?? '',
    deliveries: number('deliveries'),
    status: number('status'),
    problem: text('problem') ?? '',
    ...(reference !== undefined ? { reference } : {}),
    bodyBytes: number('bodyBytes'),
    bodyKept: text('bodyKept') === 'part' ? 'part' : 'whole',
  };
}

/** A whole item: body, headers and all. */
export function kept(item: Item): KeptRefusal {
  const text = (name: string) => item[name]?.S;
  const number = (name: string) => Number(item[name]?.N ?? 0);
  const fieldErrors = text('fieldErrors');
  return {
    ...summary(item),
    ...(fieldErrors ? { fieldErrors: JSON.parse(fieldErrors) as FieldError[] } : {}),
    ...(item.id?.S !== undefined ? { id: item.id.S } : {}),
    firstReceivedAt: text('firstReceivedAt') ?? '',
    body: item.rawBody?.B ?? new Uint8Array(),
    headers: JSON.parse(text('headers') ?? '{}') as Record<string, string>,
    // Absent on an item written by hand (tests, tools): nothing says a header was left out.
    headersKept: text('headersKept') === 'part' ? 'part' : 'whole',
    headersDropped: number('headersDropped'),
    keyId: text('keyId') ?? '',
    requestId: text('requestId') ?? '',
    sourceIp: text('sourceIp') ?? '',
    expiresAt: new Date(number(refusalsTable.expiresAt) * 1000).toISOString(),
  };
}
