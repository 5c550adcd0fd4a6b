import type { UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { conflictCountAttributes } from '../settle/settlement.js';
import { ifAbsentSets } from './if-absent-sets.js';
import { attributes } from './table-definition.js';
import { conflictItem } from './transaction-item.js';
import type { TransactionRecord } from './transaction-store.js';

/**
 * The one write that keeps a conflicting delivery: an upsert on its audit key (one item per
 * reference and content). The first delivery's details are written only if absent
 * (`if_not_exists`), so the item is what first came; every delivery counts itself and stamps
 * the last receive time. The first write is an INSERT on the stream (one `Transaction Conflict`
 * event), the later ones MODIFYs (no event).
 *
 * `settled`: the content was already settled by an operator (a superseded version delivered
 * again): the item is marked so that its INSERT publishes no event.
 */
export function keepConflictUpdate(
  tableName: string,
  record: TransactionRecord,
  settled: boolean,
): UpdateItemCommandInput {
  const { [attributes.reference]: key, ...first } = conflictItem(record);
  if (key === undefined) throw new Error('a conflict item always has a key');
  if (settled) first[conflictCountAttributes.afterSettlement] = { BOOL: true };
  const { names, values, sets } = ifAbsentSets(first);
  names['#last'] = conflictCountAttributes.lastReceivedAt;
  names['#deliveries'] = conflictCountAttributes.deliveries;
  values[':last'] = { S: record.receivedAt };
  values[':one'] = { N: '1' };
  sets.push('#last = :last');
  return {
    TableName: tableName,
    Key: { [attributes.reference]: key },
    UpdateExpression: `SET ${sets.join(', ')} ADD #deliveries :one`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
