import { type AttributeValue, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { refusalsTable } from '../../../lambda/refusals/refusals-table.js';
import { resolutionAttribute } from '../../../lambda/settle/written-attributes.js';
import { itemsByKey } from '../../table/items-by-key.js';
import type { QueryContext } from '../../table/transaction-queries.js';

type Item = Record<string, AttributeValue>;

/** Longest reason kept, as for a settle's. */
export const maxResolutionReasonLength = 1000;

/** Who dealt with a refusal, when, why, and how: marked by hand, or resubmitted and accepted. */
export interface RefusalResolution {
  readonly by: string;
  readonly at: string;
  readonly why: string;
  readonly how: 'marked' | 'resubmitted';
}

/** The refusal could not be marked: gone (expired), or the reason is not one to keep. */
export class ResolveRefusedError extends Error {
  override readonly name = 'ResolveRefusedError';
}

/**
 * Records `resolution` on the kept refusal `digest`: one conditional UpdateItem, on a refusal
 * that exists (not a per-minute counter item, not one TTL deleted meanwhile). A later delivery
 * of the same body rewrites its counts and last time, not this: {@link isResolved} then says it
 * came again after it was dealt with.
 */
export async function resolveRefusal(
  { client, tableName }: QueryContext,
  digest: string,
  resolution: RefusalResolution,
): Promise<void> {
  const why = resolution.why.trim();
  if (why === '' || resolution.why.length > maxResolutionReasonLength) {
    throw new ResolveRefusedError(
      `a reason is required, up to ${maxResolutionReasonLength} characters`,
    );
  }
  try {
    await client.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: { [refusalsTable.partitionKey]: { S: digest } },
        UpdateExpression: 'SET #resolution = :resolution',
        ConditionExpression: 'attribute_exists(#digest) AND attribute_exists(#shard)',
        ExpressionAttributeNames: {
          '#resolution': resolutionAttribute,
          '#digest': refusalsTable.partitionKey,
          '#shard': refusalsTable.listShard,
        },
        ExpressionAttributeValues: {
          ':resolution': {
            M: {
              by: { S: resolution.by },
              at: { S: resolution.at },
              why: { S: why },
              how: { S: resolution.how },
            },
          },
        },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    throw new ResolveRefusedError(`no kept refusal ${digest}: it may have expired`, {
      cause: error,
    });
  }
}

/** The resolution kept on an item, if any. */
export function resolutionOf(item: Item | undefined): RefusalResolution | undefined {
  const fields = item?.[resolutionAttribute]?.M;
  if (fields === undefined) return undefined;
  return {
    by: fields.by?.S ?? '',
    at: fields.at?.S ?? '',
    why: fields.why?.S ?? '',
    how: fields.how?.S === 'resubmitted' ? 'resubmitted' : 'marked',
  };
}

/** Dealt with, and not delivered again since. */
export function isResolved(
  resolution: RefusalResolution | undefined,
  lastReceivedAt: string,
): boolean {
  return resolution !== undefined && resolution.at >= lastReceivedAt;
}

/**
 * The resolutions of the refusals `digests` names: read by key, only that attribute projected
 * (the index does not carry it, and no body is read), a hundred keys a request.
 */
export async function resolutionsOf(
  context: QueryContext,
  digests: readonly string[],
): Promise<Map<string, RefusalResolution>> {
  const found = new Map<string, RefusalResolution>();
  const items = await itemsByKey(context, refusalsTable.partitionKey, digests, {
    projection: [refusalsTable.partitionKey, resolutionAttribute],
  });
  for (const item of items) {
    const digest = item[refusalsTable.partitionKey]?.S;
    const resolution = resolutionOf(item);
    if (digest !== undefined && resolution !== undefined) found.set(digest, resolution);
  }
  return found;
}
