import { canonicalNumber } from '../json/canonical-number.js';
import { JsonNumber } from '../json/json-number.js';
import { isJsonObject, type JsonValue, parseStrictJson } from '../json/strict-json.js';

/**
 * Names of the members outside the published interface that differ between the stored
 * transaction and a redelivery of it (present on one side only, or with another value). They
 * never make a conflict; the names are logged with the duplicate so an operator can see a gateway
 * that sends per-delivery members, at no cost beyond the write DynamoDB already answered.
 * Values are compared by value (`1e2` equals `100`), and are never logged: they may be personal.
 */
export function differingMembers(
  storedText: string | undefined,
  current: Readonly<Record<string, JsonValue>>,
): string[] {
  const stored = storedMembers(storedText);
  const names = new Set([...Object.keys(stored), ...Object.keys(current)]);
  return [...names]
    .filter((name) => {
      const [a, b] = [stored[name], current[name]];
      return a === undefined || b === undefined || byValue(a) !== byValue(b);
    })
    .sort();
}

function storedMembers(text: string | undefined): Readonly<Record<string, JsonValue>> {
  if (text === undefined) return {};
  const { value } = parseStrictJson(text);
  return isJsonObject(value) ? value : {};
}

/** Compact JSON with members sorted and numbers in their canonical form where they have one. */
function byValue(value: JsonValue): string {
  if (value instanceof JsonNumber) return canonicalNumber(value.source)?.plain ?? value.source;
  if (Array.isArray(value)) return `[${value.map(byValue).join(',')}]`;
  if (isJsonObject(value)) {
    const members = Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${byValue(value[name] as JsonValue)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
