import type { AttributeValue } from '@aws-sdk/client-dynamodb';

type Key = Record<string, AttributeValue>;

/**
 * A DynamoDB key (a page's `LastEvaluatedKey`) as an opaque cursor for a URL, and back. Only
 * string and number attributes, as every key of these tables is; anything else in a cursor from
 * the URL (edited, truncated, another view's) is no cursor at all, and the list starts over.
 */
export function encodeKey(key: Key): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeKey(text: string | undefined): Key | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const entries = Object.entries(value);
    if (entries.length === 0 || entries.length > 4) return undefined;
    const key: [string, AttributeValue][] = [];
    for (const [name, attribute] of entries) {
      const { S, N, ...rest } = (attribute ?? {}) as Record<string, unknown>;
      if (Object.keys(rest).length > 0) return undefined;
      if (typeof S === 'string' && N === undefined) key.push([name, { S }]);
      else if (typeof N === 'string' && S === undefined && /^-?\d+(\.\d+)?$/.test(N)) {
        key.push([name, { N }]);
      } else return undefined;
    }
    // fromEntries defines own properties: a name such as __proto__ cannot reach the prototype.
    return Object.fromEntries(key);
  } catch {
    return undefined;
  }
}
