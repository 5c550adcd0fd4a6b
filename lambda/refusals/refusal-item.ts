import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { ifAbsentSets } from '../storage/if-absent-sets.js';
import type { RefusalRecord } from './refusal.js';
import { listShardOf, refusalsTable } from './refusals-table.js';

/**
 * The one write that keeps a refusal: an upsert on the body's digest. The first delivery's
 * details are written only if absent (`if_not_exists`); every delivery counts itself, stamps the
 * last receive time and pushes the expiry out. One item per body, even when two instances keep
 * the same new body at once.
 */
export function keepRefusalUpdate(
  tableName: string,
  refusal: RefusalRecord,
  retentionSeconds: number,
): UpdateItemCommandInput {
  const first: Record<string, AttributeValue> = {
    rawBody: { B: refusal.body },
    bodyBytes: { N: String(refusal.bodyBytes) },
    bodyKept: { S: refusal.body.length < refusal.bodyBytes ? 'part' : 'whole' },
    headers: { S: JSON.stringify(refusal.headers) },
    headersKept: { S: refusal.headersDropped > 0 ? 'part' : 'whole' },
    headersDropped: { N: String(refusal.headersDropped) },
    status: { N: String(refusal.status) },
    problem: { S: refusal.problem },
    firstReceivedAt: { S: refusal.receivedAt.toISOString() },
    keyId: { S: refusal.keyId },
    requestId: { S: refusal.requestId },
    sourceIp: { S: refusal.sourceIp },
  };
  if (refusal.fieldErrors) first.fieldErrors = { S: JSON.stringify(refusal.fieldErrors) };
  if (refusal.reference !== undefined && refusal.reference !== '') {
    first.reference = { S: refusal.reference };
  }
  if (refusal.id !== undefined) first.id = { S: refusal.id };

  const { names, values, sets } = ifAbsentSets(first);
  const delivery = deliveryParts(refusal, retentionSeconds);
  return {
    TableName: tableName,
    Key: { [refusalsTable.partitionKey]: { S: refusal.digest } },
    UpdateExpression: `SET ${[...sets, delivery.set].join(', ')} ADD ${delivery.add}`,
    ExpressionAttributeNames: { ...names, ...delivery.names },
    ExpressionAttributeValues: { ...values, ...delivery.values },
  };
}

/**
 * One more delivery of a body that is already kept, and only then (the condition). One write
 * either way; when the body is new, the condition fails and nothing is written.
 */
export function countDeliveryUpdate(
  tableName: string,
  refusal: RefusalRecord,
  retentionSeconds: number,
): UpdateItemCommandInput {
  const delivery = deliveryParts(refusal, retentionSeconds);
  return {
    TableName: tableName,
    Key: { [refusalsTable.partitionKey]: { S: refusal.digest } },
    UpdateExpression: `SET ${delivery.set} ADD ${delivery.add}`,
    ConditionExpression: 'attribute_exists(#digest)',
    ExpressionAttributeNames: { ...delivery.names, '#digest': refusalsTable.partitionKey },
    ExpressionAttributeValues: delivery.values,
  };
}

/**
 * What every delivery writes: counted, its last receive time stamped (the index's sort key), its
 * expiry pushed out, and its index partition.
 */
function deliveryParts(refusal: RefusalRecord, retentionSeconds: number) {
  return {
    set: '#last = :last, #expires = :expires, #shard = :shard',
    add: '#deliveries :one',
    names: {
      '#last': refusalsTable.lastReceivedAt,
      '#expires': refusalsTable.expiresAt,
      '#shard': refusalsTable.listShard,
      '#deliveries': 'deliveries',
    },
    values: {
      ':last': { S: refusal.receivedAt.toISOString() },
      ':expires': {
        N: String(Math.floor(refusal.receivedAt.getTime() / 1000) + retentionSeconds),
      },
      ':shard': { S: listShardOf(refusal.digest) },
      ':one': { N: '1' },
    } satisfies Record<string, AttributeValue>,
  };
}
