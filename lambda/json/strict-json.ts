import { JsonNumber } from './json-number.js';

export type JsonValue = string | boolean | null | JsonNumber | JsonValue[] | JsonObject;
export interface JsonObject {
  [member: string]: JsonValue;
}

/** True for a JSON object: not null, an array or a number (numbers are objects here). */
export function isJsonObject(value: JsonValue): value is JsonObject {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof JsonNumber)
  );
}

/** Where a top-level member's value sits in the source text (UTF-16 offsets, end exclusive). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface ParsedDocument {
  readonly value: JsonValue;
  /** Spans of the values of the top-level object's members, by member name. */
  readonly memberSpans: ReadonlyMap<string, Span>;
}

/**
 * Deeper than any transaction object needs; keeps hostile nesting from costing stack or time.
 * (Storage does not bound it: members beyond the known fields are stored as JSON text.)
 */
export const maxDepth = 30;

/** Member names that could reach a prototype if any later code copied the object naively. */
const forbiddenMembers = new Set(['__proto__', 'constructor']);

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
  constructor(
    message: string,
    readonly position: number,
    options?: ErrorOptions,
  ) {
    super(`${message} at position ${position}`, options);
  }
}

/**
 * A strict RFC 8259 parser, stricter than `JSON.parse` where a payment record needs it: duplicate
 * member names, `__proto__`/`constructor` members, numbers that overflow a double, lone surrogates
 * and nesting beyond {@link maxDepth} are rejected rather than silently resolved; numbers are kept
 * as their source text. It also reports where each top-level value sits, so the hash can be
 * checked against the sender's own bytes.
 */
export function parseStrictJson(text: string): ParsedDocument {
  return new Parser(text).parseDocument();
}

const whitespace = new Set([0x20, 0x09, 0x0a, 0x0d]);
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const escapes: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Parser {
  private pos = 0;
  private readonly memberSpans = new Map<string, Span>();

  constructor(private readonly text: string) {}

  parseDocument(): ParsedDocument {
    this.skipWhitespace();
    const value = this.parseValue(1);
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail('unexpected text after the JSON value');
    return { value, memberSpans: this.memberSpans };
  }

  private parseValue(depth: number): JsonValue {
    if (depth > maxDepth) this.fail(`nesting deeper than ${maxDepth} levels`);
    const char = this.text[this.pos];
    switch (char) {
      case '{':
        return this.parseObject(depth);
      case '[':
        return this.parseArray(depth);
      case '"':
        return this.parseString();
      case 't':
        return this.parseLiteral('true', true);
      case 'f':
        return this.parseLiteral('false', false);
      case 'n':
        return this.parseLiteral('null', null);
      default:
        if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
          return this.parseNumber();
        }
        return this.fail(char === undefined ? 'unexpected end of input' : 'unexpected character');
    }
  }

  private parseObject(depth: number): JsonObject {
    const object: JsonObject = {};
    const seen = new Set<string>();
    if (this.opensEmpty('}')) return object;
    do {
      if (this.text[this.pos] !== '"') this.fail('expected a member name');
      const namePosition = this.pos;
      const name = this.parseString();
      if (forbiddenMembers.has(name)) this.fail(`forbidden member name "${name}"`, namePosition);
      if (seen.has(name)) this.fail('duplicate member name', namePosition);
      seen.add(name);
      this.skipWhitespace();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      this.skipWhitespace();
      const start = this.pos;
      object[name] = this.parseValue(depth + 1);
      if (depth === 1) this.memberSpans.set(name, { start, end: this.pos });
    } while (!this.closes('}'));
    return object;
  }

  private parseArray(depth: number): JsonValue[] {
    const array: JsonValue[] = [];
    if (this.opensEmpty(']')) return array;
    do array.push(this.parseValue(depth + 1));
    while (!this.closes(']'));
    return array;
  }

  /** Steps past an opening bracket; true, past the closing one too, for an empty container. */
  private opensEmpty(close: '}' | ']'): boolean {
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] !== close) return false;
    this.pos++;
    return true;
  }

  /** After a member or element: true past `close`, false past a ',' (another one follows). */
  private closes(close: '}' | ']'): boolean {
    this.skipWhitespace();
    const next = this.text[this.pos++];
    if (next === close) return true;
    if (next !== ',') this.fail(`expected ',' or '${close}'`, this.pos - 1);
    this.skipWhitespace();
    return false;
  }

  private parseString(): string {
    const text = this.text;
    let result = '';
    let chunkStart = ++this.pos;
    for (;;) {
      const code = text.charCodeAt(this.pos);
      if (Number.isNaN(code)) this.fail('unterminated string');
      if (code === 0x22) {
        result += text.slice(chunkStart, this.pos++);
        return result;
      }
      if (code < 0x20) this.fail('control character in string');
      if (code === 0x5c) {
        result += text.slice(chunkStart, this.pos);
        result += this.parseEscape();
        chunkStart = this.pos;
        continue;
      }
      if (code >= 0xd800 && code <= 0xdfff) {
        // Raw text came through a fatal UTF-8 decoder, so pairs here are always well formed;
        // still, a lone surrogate must never reach storage.
        const low = text.charCodeAt(this.pos + 1);
        if (code > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) this.fail('lone surrogate');
        this.pos += 2;
        continue;
      }
      this.pos++;
    }
  }

  private parseEscape(): string {
    const marker = this.text[this.pos + 1];
    if (marker === 'u') {
      const unit = this.readHex4(this.pos + 2);
      this.pos += 6;
      if (unit >= 0xdc00 && unit <= 0xdfff) this.fail('lone surrogate escape', this.pos - 6);
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const low =
          this.text[this.pos] === '\\' && this.text[this.pos + 1] === 'u'
            ? this.readHex4(this.pos + 2)
            : -1;
        if (!(low >= 0xdc00 && low <= 0xdfff)) this.fail('lone surrogate escape', this.pos - 6);
        this.pos += 6;
        return String.fromCharCode(unit, low);
      }
      return String.fromCharCode(unit);
    }
    const replacement = marker === undefined ? undefined : escapes[marker];
    if (replacement === undefined) this.fail('invalid escape');
    this.pos += 2;
    return replacement;
  }

  private readHex4(at: number): number {
    const hex = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape', at);
    return Number.parseInt(hex, 16);
  }

  private parseNumber(): JsonNumber {
    numberPattern.lastIndex = this.pos;
    const match = numberPattern.exec(this.text);
    if (!match) return this.fail('invalid number');
    const source = match[0];
    if (!Number.isFinite(Number(source))) this.fail('number out of range');
    this.pos += source.length;
    return new JsonNumber(source);
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('unexpected character');
    this.pos += word.length;
    return value;
  }

  private skipWhitespace(): void {
    while (whitespace.has(this.text.charCodeAt(this.pos))) this.pos++;
  }

  private fail(message: string, position = this.pos): never {
    throw new JsonSyntaxError(message, position);
  }
}
