import type { QueryCommandInput } from '@aws-sdk/client-dynamodb';
import {
  type TransactionFields,
  transactionFields,
} from '../../lambda/callback/transaction-fields.js';
import {
  attributes,
  indexNamesOf,
  transactionsTableOf,
} from '../../lambda/storage/table-definition.js';

/**
 * A `byTime` query's `ProjectionExpression` for the attributes `only` names, plus the reference
 * and time every entry is ordered by; `#p0`, `#p1`… in the names (some are reserved words).
 * Names the index does not carry are left out: they would be absent anyway, and DynamoDB refuses
 * to project them (dynalite does not check). Without `only`, nothing: the whole entry.
 */
export function byTimeProjection(
  only: readonly string[] | undefined,
  fields: TransactionFields = transactionFields,
): {
  readonly names: Record<string, string>;
  readonly expression: Pick<QueryCommandInput, 'ProjectionExpression'>;
} {
  if (only === undefined) return { names: {}, expression: {} };
  const { byTime } = indexNamesOf(fields);
  const index = transactionsTableOf(fields).indexes.find(({ indexName }) => indexName === byTime);
  const carried = index?.projection ?? [];
  const wanted = only.filter(
    (name) => carried === 'all' || (carried !== 'keys' && carried.includes(name)),
  );
  const projected = [...new Set([attributes.reference, attributes.receivedAt, ...wanted])];
  const names = Object.fromEntries(projected.map((name, i) => [`#p${i}`, name]));
  return { names, expression: { ProjectionExpression: Object.keys(names).join(', ') } };
}
