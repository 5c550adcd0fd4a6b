import { JsonNumber } from './json-number.js';

/** A value to write as JSON; `bigint` and {@link JsonNumber} keep their exact digits. */
export type SerializableValue =
  | string
  | number
  | bigint
  | boolean
  | null
  | JsonNumber
  | readonly SerializableValue[]
  | { readonly [member: string]: SerializableValue };

/** Compact JSON, members in their given order, exact numbers as their digits (JSON.stringify cannot). */
export function stringifyJson(value: SerializableValue): string {
  if (value instanceof JsonNumber) return value.source;
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(stringifyJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value as { readonly [member: string]: SerializableValue });
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${stringifyJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
