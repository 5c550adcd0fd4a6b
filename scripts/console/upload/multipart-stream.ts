/**
 * A `multipart/form-data` body read as it arrives, part by part, so an uploaded report goes to
 * disk in chunks and is never held whole in memory (the platform's `formData()` buffers the
 * body, and more than once). Only what a browser's form sends is read: parts delimited by the
 * boundary, each with a `Content-Disposition: form-data; name="…"` header (RFC 7578).
 */

/** A part's name and, for a file input, the file's own name. */
export interface PartHead {
  readonly name: string;
  readonly filename?: string;
}

/** Where a part's bytes go, in order, then `end`. */
export interface PartSink {
  write(chunk: Uint8Array): void | Promise<void>;
  end(): void | Promise<void>;
}

/** A body that is not the multipart a form sends: a 400 with this message. */
export class MultipartError extends Error {
  override name = 'MultipartError';
}

/** The form's boundary from its Content-Type, or undefined when it is not multipart. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!/^multipart\/form-data\s*;/i.test(contentType ?? '')) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  return match?.[1] ?? match?.[2];
}

// Part headers are a few short lines; more means this is not a browser's form.
const maxHeaderBytes = 8 * 1024;
const crlfCrlf = Buffer.from('\r\n\r\n');

/**
 * Reads `body` and hands each part's bytes to the sink `open` returns for it. The delimiter is
 * `CRLF--boundary`; a CRLF is put before the body so the first boundary matches it too. Between
 * two reads, the last bytes that could begin a delimiter are held back, never written early.
 */
export async function readMultipart(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
  open: (head: PartHead) => PartSink,
): Promise<void> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // Changed inside step(): typed wide so the checks after the loop are not narrowed away.
  let state = 'preamble' as 'preamble' | 'after-delimiter' | 'headers' | 'content' | 'done';
  let pending: Buffer = Buffer.from('\r\n');
  let sink: PartSink | undefined;

  const step = async (): Promise<boolean> => {
    switch (state) {
      case 'preamble': {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          pending = pending.subarray(Math.max(0, pending.length - delimiter.length + 1));
          return false;
        }
        pending = pending.subarray(at + delimiter.length);
        state = 'after-delimiter';
        return true;
      }
      case 'after-delimiter': {
        if (pending.length < 2) return false;
        const next = pending.subarray(0, 2).toString('latin1');
        if (next === '--') state = 'done';
        else if (next === '\r\n') state = 'headers';
        else throw new MultipartError('the upload is not a well-formed form (a boundary is cut)');
        pending = pending.subarray(2);
        return state !== 'done';
      }
      case 'headers': {
        const at = pending.indexOf(crlfCrlf);
        if (at < 0) {
          if (pending.length > maxHeaderBytes) {
            throw new MultipartError(
              'the upload is not a well-formed form (part headers too long)',
            );
          }
          return false;
        }
        sink = open(partHead(pending.subarray(0, at).toString('utf8')));
        pending = pending.subarray(at + crlfCrlf.length);
        state = 'content';
        return true;
      }
      case 'content': {
        const at = pending.indexOf(delimiter);
        const current = sink as PartSink;
        if (at < 0) {
          const safe = pending.length - delimiter.length + 1;
          if (safe > 0) {
            await current.write(pending.subarray(0, safe));
            pending = pending.subarray(safe);
          }
          return false;
        }
        if (at > 0) await current.write(pending.subarray(0, at));
        await current.end();
        pending = pending.subarray(at + delimiter.length);
        state = 'after-delimiter';
        return true;
      }
      case 'done':
        return false;
    }
  };

  for await (const chunk of body) {
    if (state === 'done') continue;
    // Copied: the held-back tail must not alias a chunk the stream reuses.
    pending = Buffer.concat([pending, chunk]);
    while (await step());
  }
  if (state !== 'done') throw new MultipartError('the upload ended before the form did');
}

function partHead(headers: string): PartHead {
  const disposition = headers.split('\r\n').find((line) => /^content-disposition\s*:/i.test(line));
  const name = disposition && /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
  if (name === undefined || name === null) {
    throw new MultipartError('the upload is not a well-formed form (a part without a name)');
  }
  const filename = /;\s*filename="([^"]*)"/i.exec(disposition as string)?.[1];
  // Browsers write `"`, CR and LF in names as %22, %0D and %0A (HTML's form encoding).
  const decoded = (text: string) =>
    text.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
  return { name: decoded(name), ...(filename !== undefined && { filename: decoded(filename) }) };
}
