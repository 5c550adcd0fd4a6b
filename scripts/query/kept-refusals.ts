import { isUtf8 } from 'node:buffer';
import { type AttributeValue, GetItemCommand, paginateScan } from '@aws-sdk/client-dynamodb';
import type { FieldError } from '../../lambda/callback/transaction-schema.js';
import type { RefusalRecord } from '../../lambda/refusals/refusal.js';
import { refusalsTable } from '../../lambda/refusals/refusals-table.js';
import type { ListingView } from '../output/listing.js';
import { UsageError } from '../shared/cli-errors.js';
import { type TargetFlags, withTarget } from './query-target.js';
import type { QueryContext } from './transaction-queries.js';

/** A kept refusal read back: what the receiver kept, with its deliveries and expiry. */
export interface KeptRefusal extends Omit<RefusalRecord, 'receivedAt'> {
  readonly firstReceivedAt: string;
  readonly lastReceivedAt: string;
  readonly deliveries: number;
  /** Whether `body` is all of the `bodyBytes` received. */
  readonly bodyKept: 'whole' | 'part';
  /** When DynamoDB's TTL may delete it. */
  readonly expiresAt: string;
}

/**
 * The kept refusals last delivered at or after `since` and naming `reference`, newest first. A
 * scan, filtered here (a filter expression would cost the same reads): the table holds one item
 * per distinct body within its retention, so it stays small.
 */
export async function listRefusals(
  { client, tableName }: QueryContext,
  { since = '', reference }: { readonly since?: string; readonly reference?: string },
): Promise<KeptRefusal[]> {
  const refusals: KeptRefusal[] = [];
  for await (const page of paginateScan({ client }, { TableName: tableName })) {
    refusals.push(...(page.Items ?? []).map(kept));
  }
  return refusals
    .filter((refusal) => refusal.lastReceivedAt >= since)
    .filter((refusal) => reference === undefined || refusal.reference === reference)
    .sort(
      (a, b) =>
        b.lastReceivedAt.localeCompare(a.lastReceivedAt) || a.digest.localeCompare(b.digest),
    );
}

/** Shortest digest prefix accepted: shorter ones too easily name more than one refusal. */
export const minDigestPrefix = 8;

/** `<refusal>`/`--refusal`: a digest, or the first hex digits of one as `query refused` shows. */
export function digestPrefix(option: string, digest: string): string {
  if (!/^[0-9a-fA-F]+$/.test(digest) || digest.length < minDigestPrefix || digest.length > 64) {
    throw new UsageError(`${option} must be ${minDigestPrefix} to 64 hex digits of a digest`);
  }
  return digest.toLowerCase();
}

/**
 * The kept refusal `digest` names, with its whole body: verify and resubmit need every byte, so
 * a body kept only in part (it was over the size limit) is an error that says `why` it matters.
 */
export async function wholeRefusal(
  flags: TargetFlags,
  digest: string,
  why: string,
): Promise<KeptRefusal> {
  const refusal = await withTarget(
    flags,
    async (target) => {
      const found = await findRefusal(target, digest);
      if (!found) throw new UsageError(`no kept refusal ${digest} in ${target.description}`);
      return found;
    },
    'refusals',
  );
  if (refusal.bodyKept === 'part') {
    const kept = `${refusal.body.length} of ${refusal.bodyBytes} bytes`;
    throw new UsageError(`only the first ${kept} of that body were kept: ${why}`);
  }
  return refusal;
}

/** The refusal whose digest is or starts with `digest`; throws when a prefix names several. */
export async function findRefusal(
  { client, tableName }: QueryContext,
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
  const found = (await listRefusals({ client, tableName }, {})).filter((refusal) =>
    refusal.digest.startsWith(wanted),
  );
  if (found.length > 1) {
    throw new UsageError(
      `${found.length} kept refusals start with ${wanted}: give more of the digest.`,
    );
  }
  return found[0];
}

function kept(item: Record<string, AttributeValue>): KeptRefusal {
  const text = (name: string) => item[name]?.S;
  const number = (name: string) => Number(item[name]?.N ?? 0);
  const fieldErrors = text('fieldErrors');
  return {
    digest: text(refusalsTable.partitionKey) ?? '',
    status: number('status'),
    problem: text('problem') ?? '',
    ...(fieldErrors ? { fieldErrors: JSON.parse(fieldErrors) as FieldError[] } : {}),
    ...(item.reference?.S !== undefined ? { reference: item.reference.S } : {}),
    ...(item.id?.S !== undefined ? { id: item.id.S } : {}),
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A kept refusal for scripts: the body as text when it is UTF-8, and always as base64 (byte
 * exact); like every JSON the tools print, terminal-unsafe characters become `\u` escapes.
 */
export function refusalRecord({ body, ...refusal }: KeptRefusal): Record<string, unknown> {
  return {
    ...refusal,
    // Not UTF-8: only base64 shows it faithfully.
    ...(isUtf8(body) ? { body: utf8.decode(body) } : {}),
    bodyBase64: Buffer.from(body).toString('base64'),
  };
}

const refusalColumns = [
  'lastReceivedAt',
  'deliveries',
  'status',
  'problem',
  'reference',
  'bodyBytes',
  'bodyKept',
  'digest',
] as const;

/** One line per kept refusal (every cell escaped for the terminal by textTable); no body in CSV. */
export const refusalView: ListingView<KeptRefusal> = {
  what: 'kept refusals',
  formats: ['table', 'json', 'jsonl', 'csv'],
  tableHead: ['Last received', 'Times', 'Status', 'Problem', 'Reference', 'Bytes', 'Digest'],
  tableRows: (refusal) => [
    [
      refusal.lastReceivedAt,
      String(refusal.deliveries),
      String(refusal.status),
      refusal.problem,
      refusal.reference ?? '',
      `${refusal.bodyBytes}${refusal.bodyKept === 'part' ? ' (part kept)' : ''}`,
      refusal.digest.slice(0, 16),
    ],
  ],
  alignRight: [1, 5],
  json: refusalRecord,
  csvHead: refusalColumns,
  csvRows: (refusal) => [refusalColumns.map((name) => String(refusal[name] ?? ''))],
};
