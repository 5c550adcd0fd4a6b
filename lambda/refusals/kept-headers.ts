import { maxKeptHeaderBytes, maxKeptHeaders } from './refusal-limits.js';

/** Headers that carry credentials: never stored, whatever their spelling. */
const credentialHeaders = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie']);

export interface KeptHeaders {
  readonly headers: Readonly<Record<string, string>>;
  /** Headers left out for the caps (credentials are not counted: they are never kept). */
  readonly dropped: number;
}

/**
 * The headers of a refused delivery that are kept: no credential, at most {@link maxKeptHeaders}
 * of them and {@link maxKeptHeaderBytes} in all. `Content-Type` is considered first, since
 * resubmitting needs it; the rest in the order received, each whole or not at all (a cut value
 * would read as what was sent).
 */
export function keptHeaders(received: Readonly<Record<string, string | undefined>>): KeptHeaders {
  const candidates = Object.entries(received).filter(
    (entry): entry is [string, string] =>
      entry[1] !== undefined && !credentialHeaders.has(entry[0].toLowerCase()),
  );
  const isContentType = ([name]: [string, string]) => name.toLowerCase() === 'content-type';
  const ordered = [
    ...candidates.filter(isContentType),
    ...candidates.filter((h) => !isContentType(h)),
  ];
  const headers: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  for (const [name, value] of ordered) {
    const size = Buffer.byteLength(name) + Buffer.byteLength(value);
    if (count >= maxKeptHeaders || bytes + size > maxKeptHeaderBytes) continue;
    headers[name] = value;
    count += 1;
    bytes += size;
  }
  return { headers, dropped: ordered.length - count };
}
