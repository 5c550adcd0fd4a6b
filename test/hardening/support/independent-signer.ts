import { createHash } from 'node:crypto';

/**
 * The test's own gateway: a JSON writer and signer written from docs/callback-hash.md without the
 * receiver's code, so an oracle built on it does not share the receiver's mistakes. Values keep
 * members as ordered entries, so duplicate and `__proto__` members can be written on purpose.
 */
export class RawJson {
  /** Written as-is: a number exactly as the gateway writes it, or deliberately broken text. */
  constructor(readonly text: string) {}
}

export class Members {
  constructor(readonly entries: readonly (readonly [string, Value])[]) {}

  get(name: string): Value | undefined {
    return this.entries.find(([member]) => member === name)?.[1];
  }

  with(name: string, value: Value): Members {
    return new Members([...this.entries.filter(([member]) => member !== name), [name, value]]);
  }

  without(name: string): Members {
    return new Members(this.entries.filter(([member]) => member !== name));
  }
}

export type Value = string | boolean | null | RawJson | readonly Value[] | Members;

/** Compact JSON; strings as `JSON.stringify` writes them (non-ASCII left raw). */
export function writeJson(value: Value): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof Members) {
    return `{${value.entries.map(([name, member]) => `${JSON.stringify(name)}:${writeJson(member)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  return JSON.stringify(value);
}

/** Every UTF-16 code unit above U+007F as `\uXXXX`, in the chosen hex case. */
export function escapeUnicode(text: string, hexCase: 'lower' | 'upper'): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      out += text[i];
      continue;
    }
    const hex = unit.toString(16).padStart(4, '0');
    out += `\\u${hexCase === 'upper' ? hex.toUpperCase() : hex}`;
  }
  return out;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export interface Signature {
  /** `S`: the escaped compact text with `"hash":""`, the text the gateway salts with the key. */
  readonly hashedText: string;
  readonly hash: string;
}

/** The gateway's hash of `members` (the `hash` member blanked, appended if absent). */
export function signature(members: Members, key: string, hexCase: 'lower' | 'upper'): Signature {
  const hashedText = escapeUnicode(writeJson(members.with('hash', '')), hexCase);
  return { hashedText, hash: sha256Hex(hashedText + key) };
}
