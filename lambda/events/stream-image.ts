import type { AttributeValue } from 'aws-lambda';
import { JsonNumber } from '../json/json-number.js';
import { type JsonValue, parseStrictJson } from '../json/strict-json.js';

/**
 * A value read out of a stream image. DynamoDB numbers stay the decimal text DynamoDB holds: a
 * JavaScript number would round `9007199254740993` or an amount with more than 15 digits.
 */
export type ImageValue = string | boolean | null | ImageValue[] | ImageObject;
export interface ImageObject {
  [name: string]: ImageValue;
}

/** An item image in the stream's (and Lambda event's) JSON form: the AttributeValue map. */
export type StreamImage = Readonly<Record<string, AttributeValue>>;

/**
 * Turns a stream image into plain values without ever parsing a number. Binary values (`B`, `BS`)
 * stay base64 text as the event carries them; the receiver never writes any.
 */
export function fromStreamImage(image: StreamImage): ImageObject {
  const object: ImageObject = {};
  for (const [name, value] of Object.entries(image)) object[name] = fromAttributeValue(value);
  return object;
}

function fromAttributeValue(value: AttributeValue): ImageValue {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.NULL !== undefined) return null;
  if (value.M !== undefined) return fromStreamImage(value.M);
  if (value.L !== undefined) return value.L.map(fromAttributeValue);
  if (value.B !== undefined) return value.B;
  if (value.SS !== undefined) return [...value.SS];
  if (value.NS !== undefined) return [...value.NS];
  if (value.BS !== undefined) return [...value.BS];
  throw new TypeError(`Unknown attribute value type: ${Object.keys(value).join(', ') || '(none)'}`);
}

/**
 * The receiver stores members added by newer gateway versions as JSON text (`extra`); this reads
 * them back as image values, numbers as their decimal text like every other number here.
 */
export function withExtraDecoded(fields: ImageObject): ImageObject {
  const extra = fields.extra;
  return typeof extra === 'string'
    ? { ...fields, extra: fromJson(parseStrictJson(extra).value) }
    : fields;
}

function fromJson(value: JsonValue): ImageValue {
  if (value instanceof JsonNumber) return value.source;
  if (Array.isArray(value)) return value.map(fromJson);
  if (value !== null && typeof value === 'object') {
    const object: ImageObject = {};
    for (const [name, member] of Object.entries(value)) object[name] = fromJson(member);
    return object;
  }
  return value;
}
