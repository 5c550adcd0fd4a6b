import type { UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { refusalsTable } from './refusals-table.js';

/**
 * The key of the item that counts the new refusals kept in `at`'s minute (UTC). It lives in the
 * refusals table, so every instance shares it; not a hex digest, so no lookup by digest meets it,
 * and without a list shard, so no listing shows it.
 */
export function minuteCounterKey(at: Date): string {
  return `kept-per-minute#${at.toISOString().slice(0, 16)}`;
}

/** A counter item outlives its minute by a day (TTL), long enough to read after an incident. */
const counterLifetimeSeconds = 86_400;

/**
 * Takes one of the minute's `limit` slots for a new refusal: an atomic ADD that only succeeds
 * while the count is below the limit, so concurrent instances can never keep more than `limit`
 * between them. A `ConditionalCheckFailedException` means the minute is full.
 */
export function claimSlotUpdate(
  tableName: string,
  at: Date,
  limit: number,
): UpdateItemCommandInput {
  return {
    TableName: tableName,
    Key: { [refusalsTable.partitionKey]: { S: minuteCounterKey(at) } },
    UpdateExpression: 'ADD #kept :one SET #expires = if_not_exists(#expires, :expires)',
    ConditionExpression: 'attribute_not_exists(#kept) OR #kept < :limit',
    ExpressionAttributeNames: { '#kept': 'kept', '#expires': refusalsTable.expiresAt },
    ExpressionAttributeValues: {
      ':one': { N: '1' },
      ':limit': { N: String(limit) },
      ':expires': { N: String(Math.floor(at.getTime() / 1000) + counterLifetimeSeconds) },
    },
  };
}
