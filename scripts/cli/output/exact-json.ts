import { NumberValueImpl as NumberValue } from '@aws-sdk/util-dynamodb';
import { unsafeCharacter } from '../terminal-text.js';

declare global {
  interface JSON {
    /** Node 21+: a JSON fragment written as-is by `JSON.stringify` (a number's own digits). */
    rawJSON(text: string): unknown;
  }
}

/**
 * JSON text with numbers as their stored digits (read it with a parser that keeps big numbers,
 * as jq does). Characters a terminal would act on (see terminal-text.ts) become `\uXXXX`
 * escapes: the same JSON value, but safe to print.
 */
export function exactJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, exactValue, indent) ?? 'null').replace(unsafeInJson, jsonEscape);
}

/**
 * Outside strings JSON text is ASCII and JSON.stringify escapes C0 controls inside them, so a
 * match is inside a string; the newlines of indentation are left alone.
 */
const unsafeInJson = new RegExp(`(?!\\n)${unsafeCharacter.source}`, 'gu');

function jsonEscape(char: string): string {
  // Code units, not code points: JSON escapes astral characters as surrogate pairs.
  return char
    .split('')
    .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');
}

function exactValue(this: unknown, _key: string, value: unknown): unknown {
  if (value instanceof NumberValue) return JSON.rawJSON(value.value);
  if (value instanceof Set) return [...value];
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}
