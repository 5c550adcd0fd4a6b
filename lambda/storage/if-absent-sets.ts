import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * `SET` clauses that write each attribute only if the item lacks it (`if_not_exists`), so an
 * upsert keeps what its first delivery wrote. Placeholders are numbered (`#f0`, `:f0`, ...) so
 * no attribute name, reserved word or not, ever appears in the expression.
 */
export function ifAbsentSets(first: Record<string, AttributeValue>): {
  names: Record<string, string>;
  values: Record<string, AttributeValue>;
  sets: string[];
} {
  const names: Record<string, string> = {};
  const values: Record<string, AttributeValue> = {};
  const sets: string[] = [];
  for (const [i, [name, value]] of Object.entries(first).entries()) {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = if_not_exists(#f${i}, :f${i})`);
  }
  return { names, values, sets };
}
