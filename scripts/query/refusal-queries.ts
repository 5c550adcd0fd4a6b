import {
  type AttributeValue,
  type DynamoDBClient,
  GetItemCommand,
  paginateScan,
} from '@aws-sdk/client-dynamodb';
import { refusalsTable } from '../../lambda/refusals/refusals-table.js';

/** A kept refusal as the tools show it (see lambda/refusals/refusal-item.ts for the item). */
export interface KeptRefusal {
  readonly digest: string;
  readonly status: number;
  readonly problem: string;
  readonly fieldErrors?: unknown;
  readonly reference?: string;
  readonly id?: string;
  readonly firstReceivedAt: string;
  readonly lastReceivedAt: string;
  readonly deliveries: number;
  /** The whole body's size; `bodyKept` says whether {@link body} is all of it. */
  readonly bodyBytes: number;
  readonly bodyKept: 'whole' | 'part';
  readonly body: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  readonly keyId: string;
  readonly requestId: string;
  readonly sourceIp: string;
  /** When DynamoDB's TTL may delete it. */
  readonly expiresAt: string;
}

export interface RefusalFilters {
  /** ISO-8601: last delivered at or after. */
  readonly since?: string;
  readonly reference?: string;
}

/**
 * Every kept refusal matching the filters, newest last delivery first. A scan: the table holds
 * only refusals within their retention (one item per distinct body), so it stays small; it is
 * read in full pages and filtered by the engine.
 */
export async function listRefusals(
  client: DynamoDBClient,
  tableName: string,
  filters: RefusalFilters,
): Promise<KeptRefusal[]> {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  if (filters.since !== undefined) {
    conditions.push('#last >= :since');
    names['#last'] = 'lastReceivedAt';
    values[':since'] = { S: filters.since };
  }
  if (filters.reference !== undefined) {
    // `reference` is a reserved word in DynamoDB expressions.
    conditions.push('#reference = :reference');
    names['#reference'] = 'reference';
    values[':reference'] = { S: filters.reference };
  }
  const refusals: KeptRefusal[] = [];
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      ...(conditions.length > 0
        ? {
            FilterExpression: conditions.join(' AND '),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }
        : {}),
    },
  );
  for await (const page of pages) for (const item of page.Items ?? []) refusals.push(kept(item));
  return refusals.sort(
    (a, b) => b.lastReceivedAt.localeCompare(a.lastReceivedAt) || a.digest.localeCompare(b.digest),
  );
}

/** Shortest digest prefix accepted: shorter ones too easily name more than one refusal. */
export const minDigestPrefix = 8;

/**
 * The refusal whose digest is `digest`, or starts with it (as the list table shows the first 16
 * hex digits). Throws when a prefix names more than one.
 */
export async function findRefusal(
  client: DynamoDBClient,
  tableName: string,
  digest: string,
): Promise<KeptRefusal | undefined> {
  const wanted = digest.toLowerCase();
  if (wanted.length === 64) {
    const output = await client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { [refusalsTable.partitionKey]: { S: wanted } },
        ConsistentRead: true,
      }),
    );
    return output.Item ? kept(output.Item) : undefined;
  }
  const found = (await listRefusals(client, tableName, {})).filter((refusal) =>
    refusal.digest.startsWith(wanted),
  );
  if (found.length > 1) {
    throw new Error(`${found.length} kept refusals start with ${wanted}: give more of the digest.`);
  }
  return found[0];
}

function kept(item: Record<string, AttributeValue>): KeptRefusal {
  const text = (name: string) => item[name]?.S;
  const number = (name: string) => Number(item[name]?.N ?? 0);
  const fieldErrors = text('fieldErrors');
  const reference = text('reference');
  const id = text('id');
  return {
    digest: text(refusalsTable.partitionKey) ?? '',
    status: number('status'),
    problem: text('problem') ?? '',
    ...(fieldErrors ? { fieldErrors: JSON.parse(fieldErrors) as unknown } : {}),
    ...(reference !== undefined ? { reference } : {}),
    ...(id !== undefined ? { id } : {}),
    firstReceivedAt: text('firstReceivedAt') ?? '',
    lastReceivedAt: text('lastReceivedAt') ?? '',
    deliveries: number('deliveries'),
    bodyBytes: number('bodyBytes'),
    bodyKept: text('bodyKept') === 'part' ? 'part' : 'whole',
    body: item.rawBody?.B ?? new Uint8Array(),
    headers: JSON.parse(text('headers') ?? '{}') as Record<string, string>,
    keyId: text('keyId') ?? '',
    requestId: text('requestId') ?? '',
    sourceIp: text('sourceIp') ?? '',
    expiresAt: new Date(number(refusalsTable.expiresAt) * 1000).toISOString(),
  };
}
