import {
  type DynamoDBClient,
  paginateQuery,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { maxReferenceLength } from '../../lambda/callback/transaction-fields.js';
import { attributes, indexNamesOf, timeShards } from '../../lambda/storage/table-definition.js';
import { usernameKey } from '../../lambda/storage/transaction-item.js';
import { itemsByKey } from './items-by-key.js';
import { mergeSorted } from './merge-sorted.js';
import { type StoredItem, storedItem } from './stored-item.js';
import { type Item, listByUsername, type QueryContext, take } from './transaction-queries.js';

/**
 * What an operator has at hand when a customer or the gateway's support calls: a reference or
 * its first characters, the gateway's own transaction `id`, or a username typed in any case.
 * One text is tried as each kind it can be, each a bounded number of queries at any table size:
 * a reference prefix one `begins_with` range per time shard ({@link timeShards}), an id one
 * query, a username one. The matches (at most `limit` of each kind) are read back by key in
 * one batch, since the search indexes hold keys only.
 */
export type SearchKind = 'id' | 'reference' | 'username';

export interface SearchedKind {
  readonly kind: SearchKind;
  /** What was looked for: the text, or the username in the lower case the index holds. */
  readonly text: string;
  readonly found: number;
  /** More matched than `limit`: the search shows the first ones and says so. */
  readonly more: boolean;
  /** Set when this kind could not be searched: its index is missing or still filling. */
  readonly unavailable?: string;
}

export interface SearchRow {
  readonly item: StoredItem;
  /** Every kind this row matched, in {@link searchKinds} order. */
  readonly matched: readonly SearchKind[];
}

export interface SearchResult {
  readonly rows: readonly SearchRow[];
  /** The kinds the text was tried as, in {@link searchKinds} order; kinds it cannot be are absent. */
  readonly searched: readonly SearchedKind[];
}

/** The order kinds are tried and rows are shown in: the most specific first. */
export const searchKinds: readonly SearchKind[] = ['id', 'reference', 'username'];

/** Matches per kind when the caller names no limit. */
export const defaultSearchLimit = 50;

/** A whole number DynamoDB can hold (`N`, 38 digits): the only text that can be an `id`. */
const gatewayIdPattern = /^-?\d{1,38}$/;
// Control characters: no reference holds one (the receiver refuses them).
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters are the point.
const controlCharacters = /[\u0000-\u001f\u007f]/;

/** The kinds `text` can be, each with what is looked for. */
export function searchPlan(text: string): { kind: SearchKind; text: string }[] {
  const plan: { kind: SearchKind; text: string }[] = [];
  if (gatewayIdPattern.test(text)) plan.push({ kind: 'id', text });
  if ([...text].length <= maxReferenceLength && !controlCharacters.test(text)) {
    plan.push({ kind: 'reference', text });
  }
  // The key the receiver writes, by the same rule: the username in lower case, or none where it
  // cannot be indexed (then it is not searchable).
  const key = usernameKey(text)[attributes.usernameKey]?.S;
  if (key !== undefined) plan.push({ kind: 'username', text: key });
  return plan;
}

/**
 * Transactions matching `text` as each kind it can be, at most `limit` of each, the most specific
 * kind first: id matches newest first, then references in order, then the user's newest first.
 */
export async function searchTransactions(
  context: QueryContext,
  text: string,
  limit = defaultSearchLimit,
): Promise<SearchResult> {
  const plan = searchPlan(text);
  const outcomes = await Promise.all(
    plan.map(async ({ kind, text: looked }) => {
      try {
        const references = await referencesOf(context, kind, looked, limit + 1);
        return { kind, text: looked, references };
      } catch (error) {
        const unavailable = missingIndex(error);
        if (unavailable === undefined) throw error;
        return { kind, text: looked, references: [], unavailable };
      }
    }),
  );
  const wanted = outcomes.flatMap(({ references }) => references.slice(0, limit));
  const items = await transactionsByReference(context, wanted);
  const rows = new Map<string, { item: StoredItem; matched: SearchKind[] }>();
  const searched: SearchedKind[] = outcomes.map(
    ({ kind, text: looked, references, unavailable }) => {
      const shown = references.slice(0, limit).filter((reference) => items.has(reference));
      for (const reference of shown) {
        const row = rows.get(reference);
        if (row) row.matched.push(kind);
        else rows.set(reference, { item: items.get(reference) as StoredItem, matched: [kind] });
      }
      return {
        kind,
        text: looked,
        found: shown.length,
        more: references.length > limit,
        ...(unavailable !== undefined && { unavailable }),
      };
    },
  );
  return { rows: [...rows.values()], searched };
}

/** The references of up to `count` matches of one kind, in the order the kind shows them. */
async function referencesOf(
  context: QueryContext,
  kind: SearchKind,
  text: string,
  count: number,
): Promise<string[]> {
  const references: string[] = [];
  const matches =
    kind === 'id'
      ? gatewayIdMatches(context, text, count)
      : kind === 'reference'
        ? referencePrefixMatches(context, text, count)
        : usernameMatches(context, text, count);
  for await (const reference of take(matches, count)) references.push(reference);
  return references;
}

/** The `byGatewayId` index: the id's transactions, newest first (a gateway may reuse an id). */
async function* gatewayIdMatches(context: QueryContext, id: string, count: number) {
  yield* indexReferences(context.client, count, {
    TableName: context.tableName,
    IndexName: indexNamesOf(context.fields).byGatewayId,
    KeyConditionExpression: '#id = :id',
    ExpressionAttributeNames: { '#id': attributes.gatewayId },
    ExpressionAttributeValues: { ':id': { N: id } },
    ScanIndexForward: false,
  });
}

/**
 * The `byReference` index: in each time shard the references starting with `prefix`, in order,
 * merged in DynamoDB's order (UTF-8 bytes, as `Buffer.compare`), so one range per shard.
 */
function referencePrefixMatches(context: QueryContext, prefix: string, count: number) {
  const shard = (index: number) =>
    indexReferences(context.client, count, {
      TableName: context.tableName,
      IndexName: indexNamesOf(context.fields).byReference,
      KeyConditionExpression: '#shard = :shard AND begins_with(#ref, :prefix)',
      ExpressionAttributeNames: { '#shard': attributes.timeShard, '#ref': attributes.reference },
      ExpressionAttributeValues: { ':shard': { S: String(index) }, ':prefix': { S: prefix } },
    });
  return mergeSorted(
    Array.from({ length: timeShards }, (_, index) => shard(index)),
    byUtf8,
  );
}

function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** The `byUser` index under the folded name: the user's transactions, newest first. */
async function* usernameMatches(context: QueryContext, folded: string, count: number) {
  for await (const item of listByUsername({ ...context, pageSize: count }, folded, {})) {
    yield String(item.reference);
  }
}

/** The references an index query finds, a page of `count` at a time. */
async function* indexReferences(
  client: DynamoDBClient,
  count: number,
  input: QueryCommandInput,
): AsyncGenerator<string> {
  for await (const page of paginateQuery({ client, pageSize: count }, input)) {
    for (const item of page.Items ?? []) {
      const reference = item[attributes.reference]?.S;
      if (reference !== undefined) yield reference;
    }
  }
}

/** The transactions among `references`, by key: one batch of a hundred keys per hundred. */
async function transactionsByReference(
  context: QueryContext,
  references: readonly string[],
): Promise<Map<string, StoredItem>> {
  const found = new Map<string, StoredItem>();
  const items: Item[] = await itemsByKey(context, attributes.reference, references);
  for (const item of items) {
    const reference = item[attributes.reference]?.S;
    if (item.record?.S === 'transaction' && reference !== undefined) {
      found.set(reference, storedItem(item, context.fields));
    }
  }
  return found;
}

/**
 * Why a search index could not be read, when that is the failure: a stack deployed before search
 * gains its indexes one deploy at a time, and DynamoDB refuses to read one still filling.
 */
function missingIndex(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (!['ValidationException', 'ResourceNotFoundException'].includes(error.name)) return undefined;
  if (/backfilling/i.test(error.message)) return 'its index is still being built';
  if (/specified index|index.*(not|does not) exist|no such index/i.test(error.message)) {
    return "this table does not have its index yet (docs/deploy.md, 'Changing indexes')";
  }
  return undefined;
}
