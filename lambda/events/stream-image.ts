import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
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
 * Turns a stream image into plain values with the SDK's own reader, every number kept as the text
 * DynamoDB holds (never parsed). Binary values (`B`, `BS`) stay as they came: base64 text in a
 * Lambda event, bytes through the SDK's streams client; the receiver never writes any.
 */
export function fromStreamImage(image: StreamImage): ImageObject {
  // The stream's attribute values are the SDK's JSON; only the binary member's type differs.
  const native = unmarshall(image as Record<string, SdkAttributeValue>, { wrapNumbers: exactText });
  return plain(native) as ImageObject;
}

/** `wrapNumbers` as a function: the number's own text, where `true` wraps it in a NumberValue. */
const exactText = (text: string) => text;

/** The reader's sets (`SS`, `NS`, `BS`) as arrays: JSON, and so the events' schema, has no set. */
function plain(value: unknown): ImageValue {
  if (value instanceof Set || Array.isArray(value)) return Array.from(value, plain);
  // Only the reader's maps: bytes (a Uint8Array) are an object too, and stay as they are.
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    const object: ImageObject = {};
    for (const [name, member] of Object.entries(value as object)) object[name] = plain(member);
    return object;
  }
  return value as ImageValue;
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
