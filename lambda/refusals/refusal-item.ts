import type { AttributeValue, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import type { RefusalRecord } from './refusal.js';
import { refusalsTable } from './refusals-table.js';

/**
 * The one write that keeps a refusal: an upsert on the body's digest. The first delivery's
 * details are written only if absent (`if_not_exists`); every delivery counts itself, stamps the
 * last receive time and pushes the expiry out. One request either way, and one item per body.
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

  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const sets: string[] = [];
  for (const [i, [name, value]] of Object.entries(first).entries()) {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = if_not_exists(#f${i}, :f${i})`);
  }
  names['#last'] = 'lastReceivedAt';
  names['#expires'] = refusalsTable.expiresAt;
  names['#deliveries'] = 'deliveries';
  values[':last'] = { S: refusal.receivedAt.toISOString() };
  values[':expires'] = {
    N: String(Math.floor(refusal.receivedAt.getTime() / 1000) + retentionSeconds),
  };
  values[':one'] = { N: '1' };
  sets.push('#last = :last', '#expires = :expires');

  return {
    TableName: tableName,
    Key: { [refusalsTable.partitionKey]: { S: refusal.digest } },
    UpdateExpression: `SET ${sets.join(', ')} ADD #deliveries :one`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
