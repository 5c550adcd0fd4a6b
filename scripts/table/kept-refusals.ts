import {
  type AttributeValue,
  BatchGetItemCommand,
  GetItemCommand,
  paginateQuery,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import {
  listShardOf,
  listShards,
  refusalsIndex,
  refusalsTable,
} from '../../lambda/refusals/refusals-table.js';
import { UsageError } from '../cli/cli-errors.js';
import { itemsByKey } from './items-by-key.js';
import { mergeSorted } from './merge-sorted.js';
import { type KeptRefusal, kept, type RefusalSummary, summary } from './refusal-item.js';
import type { QueryContext } from './transaction-queries.js';

type Item = Record<string, AttributeValue>;

/** Where a page of refusals stopped: see {@link RefusalFilters.before}. */
export interface RefusalCursor {
  readonly at: string;
  readonly seen: readonly string[];
}

export interface RefusalFilters {
  /** Last delivered at or after (ISO-8601). */
  readonly since?: string;
  readonly reference?: string;
  /**
   * Only those after a page that ended at `at` (newest first): last delivered at or before it,
   * less those at `at` already shown (`seen`: their digests, or the first hex digits of each).
   * The next page starts where one stopped, by key, at any table size. By what was shown, not
   * by digest order: refusals delivered in the same millisecond come in no order DynamoDB
   * promises.
   */
  readonly before?: RefusalCursor;
  /**
   * Index entries per request to each partition (@default {@link indexPageSize}). A page of the
   * console asks for its own size and one more, so it reads as many entries at any count kept,
   * rather than up to 16 x 250 to show 50.
   */
  readonly pageSize?: number;
}

/** Index entries per request: small entries, so a page is quick to get and cheap to hold. */
const indexPageSize = 250;

/**
 * The kept refusals last delivered at or after `since` (and naming `reference`), newest first:
 * one range query per index partition, read in parallel and merged, so the first line comes
 * after one page of each and memory stays flat whatever the count. A reference is a filter on
 * those queries (the index is small: no body in it), not a key.
 */
export function listRefusalSummaries(
  context: QueryContext,
  filters: RefusalFilters = {},
): AsyncGenerator<RefusalSummary> {
  const { since, reference, before, pageSize = indexPageSize } = filters;
  // A cursor older than the window: nothing (and DynamoDB refuses a BETWEEN upside down).
  if (since !== undefined && before !== undefined && since > before.at) return nothing();
  // DynamoDB takes no empty string in a key condition: without `since`, no lower bound.
  const range =
    since !== undefined && before !== undefined
      ? ' AND #last BETWEEN :since AND :before'
      : since !== undefined
        ? ' AND #last >= :since'
        : before !== undefined
          ? ' AND #last <= :before'
          : '';
  const shards = listShards.map((shard) =>
    queryIndex(context, pageSize, {
      KeyConditionExpression: `#shard = :shard${range}`,
      ExpressionAttributeNames: {
        '#shard': refusalsTable.listShard,
        ...(range === '' ? {} : { '#last': refusalsTable.lastReceivedAt }),
        ...(reference === undefined ? {} : { '#reference': 'reference' }),
      },
      ExpressionAttributeValues: {
        ':shard': { S: shard },
        ...(since === undefined ? {} : { ':since': { S: since } }),
        ...(before === undefined ? {} : { ':before': { S: before.at } }),
        ...(reference === undefined ? {} : { ':reference': { S: reference } }),
      },
      ...(reference === undefined ? {} : { FilterExpression: '#reference = :reference' }),
    }),
  );
  const merged = mergeSorted(shards, newestFirst);
  return before === undefined ? merged : after(merged, before);
}

async function* nothing(): AsyncGenerator<RefusalSummary> {}

/** Those at or before `before.at`, less the ones at that very time already shown. */
async function* after(
  summaries: AsyncGenerator<RefusalSummary>,
  before: RefusalCursor,
): AsyncGenerator<RefusalSummary> {
  for await (const entry of summaries) {
    const shown = before.seen.some((digest) => entry.digest.startsWith(digest));
    if (entry.lastReceivedAt === before.at && shown) continue;
    yield entry;
  }
}

/** Newest first; equal times by digest, so the order is total and the same on every run. */
function newestFirst(a: RefusalSummary, b: RefusalSummary): number {
  return b.lastReceivedAt.localeCompare(a.lastReceivedAt) || a.digest.localeCompare(b.digest);
}

async function* queryIndex(
  { client, tableName }: QueryContext,
  pageSize: number,
  input: Omit<QueryCommandInput, 'TableName' | 'IndexName'>,
): AsyncGenerator<RefusalSummary> {
  const pages = paginateQuery(
    { client, pageSize },
    { TableName: tableName, IndexName: refusalsIndex.indexName, ScanIndexForward: false, ...input },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) yield summary(item);
  }
}

/**
 * Whole items read back by key per batch: at most this many bodies (64 KB each) held at once.
 * Five rather than BatchGetItem's hundred: in bench/refusals (10,000 refusals of 64 KB, JSON),
 * ten peaked at 222 to 307 MB of RSS from run to run, five at 218 to 219 MB, in 1.15x the time.
 */
const readBackBatch = 5;

/** {@link listRefusalSummaries}, each read back whole (body, headers), a batch at a time. */
export async function* listRefusals(
  context: QueryContext,
  filters: RefusalFilters = {},
): AsyncGenerator<KeptRefusal> {
  let digests: string[] = [];
  for await (const entry of listRefusalSummaries(context, filters)) {
    if (digests.push(entry.digest) < readBackBatch) continue;
    yield* await refusalsByDigest(context, digests);
    digests = [];
  }
  if (digests.length > 0) yield* await refusalsByDigest(context, digests);
}

/** The refusals `digests` name, in that order; one TTL deleted meanwhile is left out. */
async function refusalsByDigest(
  { client, tableName }: QueryContext,
  digests: readonly string[],
): Promise<KeptRefusal[]> {
  const found = new Map<string, KeptRefusal>();
  let keys: Item[] = digests.map((digest) => ({ [refusalsTable.partitionKey]: { S: digest } }));
  while (keys.length > 0) {
    const output = await client.send(
      new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: keys } } }),
    );
    for (const item of output.Responses?.[tableName] ?? []) {
      const refusal = kept(item);
      found.set(refusal.digest, refusal);
    }
    // Keys DynamoDB did not get to (throttling, 16 MB) come back to be asked again.
    keys = output.UnprocessedKeys?.[tableName]?.Keys ?? [];
  }
  return digests.flatMap((digest) => found.get(digest) ?? []);
}

/**
 * When each refusal `digests` names was first delivered: what the index does not carry (it is
 * written once, so it stays off the entry every repeat rewrites). Read by key with only that
 * attribute projected, a hundred keys a request, so no body is read; one TTL deleted meanwhile
 * is left out.
 */
export async function firstReceivedTimes(
  context: QueryContext,
  digests: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const items = await itemsByKey(context, refusalsTable.partitionKey, digests, {
    projection: [refusalsTable.partitionKey, 'firstReceivedAt'],
  });
  for (const item of items) {
    const [digest, first] = [item[refusalsTable.partitionKey]?.S, item.firstReceivedAt?.S];
    if (digest !== undefined && first !== undefined) found.set(digest, first);
  }
  return found;
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
 * The refusal whose digest is or starts with `digest`; throws when a prefix names several. A
 * whole digest is one GetItem; a prefix reads the one index partition its first digit names,
 * keys only, and stops at a second match.
 */
export async function findRefusal(
  context: QueryContext,
  digest: string,
): Promise<KeptRefusal | undefined> {
  const wanted = digest.toLowerCase();
  if (wanted.length === 64) return getRefusal(context, wanted);
  const matches: string[] = [];
  const pages = paginateQuery(
    { client: context.client, pageSize: 1000 },
    {
      TableName: context.tableName,
      IndexName: refusalsIndex.indexName,
      KeyConditionExpression: '#shard = :shard',
      FilterExpression: 'begins_with(#digest, :prefix)',
      ProjectionExpression: '#digest',
      ExpressionAttributeNames: {
        '#shard': refusalsTable.listShard,
        '#digest': refusalsTable.partitionKey,
      },
      ExpressionAttributeValues: { ':shard': { S: listShardOf(wanted) }, ':prefix': { S: wanted } },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) matches.push(item[refusalsTable.partitionKey]?.S ?? '');
    if (matches.length > 1) {
      throw new UsageError(
        `more than one kept refusal starts with ${wanted}: give more of the digest.`,
      );
    }
  }
  const [match] = matches;
  return match === undefined ? undefined : getRefusal(context, match);
}

async function getRefusal(
  { client, tableName }: QueryContext,
  digest: string,
): Promise<KeptRefusal | undefined> {
  const output = await client.send(
    new GetItemCommand({
      TableName: tableName,
      Key: { [refusalsTable.partitionKey]: { S: digest } },
      ConsistentRead: true,
    }),
  );
  return output.Item ? kept(output.Item) : undefined;
}
