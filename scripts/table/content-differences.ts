import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { differingMembers } from '../../lambda/callback/extra-members.js';
import {
  type FieldDeclarations,
  fieldNames,
  transactionFields,
} from '../../lambda/callback/transaction-fields.js';
import { stringifyJson } from '../../lambda/json/json-text.js';
import { isJsonObject, type JsonValue, parseStrictJson } from '../../lambda/json/strict-json.js';

type Attributes = Readonly<Record<string, AttributeValue>>;

/** One field that differs: its value on each side as text, `null` where it is absent. */
export interface ContentDifference {
  /** A compared field of the declaration, or `extra.<member>` for a member outside it. */
  readonly field: string;
  readonly stored: string | null;
  readonly received: string | null;
}

/**
 * The fields the declaration compares for duplicates (`fingerprinted`), in its order: a conflict
 * is a difference in one of them. Not `hash`: it differs whenever the key does, says nothing about
 * the transaction, and is a digest an operator has no use for.
 */
const comparedFields = (fields: FieldDeclarations) =>
  fieldNames(fields, (field) => field.fingerprinted);

/**
 * Field by field, what the received content says that the stored one does not: every compared
 * field of the declaration (numbers by their canonical digits, as stored), then every member
 * outside it (`extra`), compared by value so `1e2` and `100` are equal.
 */
export function contentDifferences(
  stored: Attributes,
  received: Attributes,
  fields: FieldDeclarations = transactionFields,
): ContentDifference[] {
  const differences: ContentDifference[] = [];
  for (const field of comparedFields(fields)) {
    const [a, b] = [scalar(stored[field]), scalar(received[field])];
    if (a !== b) differences.push({ field, stored: a, received: b });
  }
  const storedExtra = members(stored.extra?.S);
  const receivedExtra = members(received.extra?.S);
  for (const name of differingMembers(stored.extra?.S, receivedExtra)) {
    differences.push({
      field: `extra.${name}`,
      stored: text(storedExtra[name]),
      received: text(receivedExtra[name]),
    });
  }
  return differences;
}

/**
 * Every field of both contents, in the order {@link contentDifferences} compares them (the
 * declaration's compared fields, then each member of `extra` on either side): the rows of a
 * side-by-side view, whose differing ones are those `contentDifferences` names.
 */
export function contentFields(
  stored: Attributes,
  received: Attributes,
  fields: FieldDeclarations = transactionFields,
): ContentDifference[] {
  const rows: ContentDifference[] = comparedFields(fields).map((field) => ({
    field,
    stored: scalar(stored[field]),
    received: scalar(received[field]),
  }));
  const storedExtra = members(stored.extra?.S);
  const receivedExtra = members(received.extra?.S);
  for (const name of new Set([...Object.keys(storedExtra), ...Object.keys(receivedExtra)])) {
    rows.push({
      field: `extra.${name}`,
      stored: text(storedExtra[name]),
      received: text(receivedExtra[name]),
    });
  }
  return rows;
}

function scalar(value: AttributeValue | undefined): string | null {
  return value?.S ?? value?.N ?? null;
}

function members(text: string | undefined): Readonly<Record<string, JsonValue>> {
  if (text === undefined) return {};
  const { value } = parseStrictJson(text);
  return isJsonObject(value) ? value : {};
}

function text(value: JsonValue | undefined): string | null {
  return value === undefined ? null : stringifyJson(value);
}
