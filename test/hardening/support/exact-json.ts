/**
 * The test's own reading of a JSON body, independent of the receiver's parser: `JSON.parse`, with
 * every number kept as its source text (Node 22+ hands the reviver the source), put in a
 * canonical form so two bodies can be compared by what they say.
 */
export class ExactNumber {
  constructor(readonly source: string) {}
}

export type ExactJson =
  | string
  | boolean
  | null
  | ExactNumber
  | readonly ExactJson[]
  | { readonly [member: string]: ExactJson };

/** Parsed with numbers as source text, or `undefined` when `JSON.parse` refuses the text. */
export function parseExact(text: string): ExactJson | undefined {
  try {
    return JSON.parse(text, (_name, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' ? new ExactNumber(context?.source ?? String(value)) : value,
    ) as ExactJson;
  } catch {
    return undefined;
  }
}

/** A canonical text: members sorted, numbers as written, `hash` left out at the top level. */
export function contentKey(value: ExactJson | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return canonical(value);
  if (value instanceof ExactNumber) return canonical(value);
  const { hash: _hash, ...rest } = value as Record<string, ExactJson>;
  return canonical(rest);
}

function canonical(value: ExactJson): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof ExactNumber) return value.source;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const object = value as Record<string, ExactJson>;
  const names = Object.keys(object);
  return `{${names
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonical(object[name] as ExactJson)}`)
    .join(',')}}`;
}

/** The top-level `hash` member, if it is a string. */
export function hashMember(value: ExactJson | undefined): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (value instanceof ExactNumber) return undefined;
  const hash = (value as Record<string, ExactJson>).hash;
  return typeof hash === 'string' ? hash : undefined;
}
