import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import {
  MultipartError,
  multipartBoundary,
  type PartSink,
  readMultipart,
} from './multipart-stream.js';

/** An upload larger than allowed: a 413, whatever was already written is removed. */
export class UploadTooLargeError extends Error {
  override name = 'UploadTooLargeError';
}

/** One uploaded file, on disk. */
export interface UploadedFile {
  /** The file's own name, as the browser sent it (for display and its extension). */
  readonly name: string;
  readonly path: string;
  readonly bytes: number;
}

export interface FileUpload {
  /** The form's text fields (a repeated name keeps its last value). */
  readonly fields: ReadonlyMap<string, string>;
  /** The file of `fileField`; absent when none was chosen. */
  readonly file?: UploadedFile;
}

// Text fields are a few dates and choices.
const maxFieldBytes = 4 * 1024;

/**
 * Streams a form upload to disk: the file of `fileField` is written to `path` as it arrives (no
 * copy of it in memory), the other fields are kept as text. More than `maxBytes` in all stops
 * the read with UploadTooLargeError; a body that is not a form, MultipartError. Either way the
 * file is removed.
 */
export async function receiveFileUpload(
  request: Request,
  options: { readonly fileField: string; readonly path: string; readonly maxBytes: number },
): Promise<FileUpload> {
  const boundary = multipartBoundary(request.headers.get('content-type') ?? undefined);
  if (boundary === undefined || request.body === null) {
    throw new MultipartError('the upload is not a form with a file (multipart/form-data)');
  }
  if (Number(request.headers.get('content-length') ?? 0) > options.maxBytes) {
    throw new UploadTooLargeError();
  }
  const fields = new Map<string, string>();
  let file: UploadedFile | undefined;
  let writing: ReturnType<typeof fileSink> | undefined;
  try {
    await readMultipart(counted(request.body, options.maxBytes), boundary, (head) => {
      if (head.filename !== undefined) {
        // An empty file input sends a part with an empty file name and no bytes.
        if (head.name !== options.fileField || head.filename === '' || writing) return ignored;
        writing = fileSink(options.path, (bytes) => {
          file = { name: head.filename as string, path: options.path, bytes };
        });
        return writing;
      }
      return textSink((text) => fields.set(head.name, text));
    });
    return { fields, ...(file && { file }) };
  } catch (error) {
    writing?.abort();
    await rm(options.path, { force: true });
    throw error;
  }
}

async function* counted(body: AsyncIterable<Uint8Array>, maxBytes: number) {
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw new UploadTooLargeError();
    yield chunk;
  }
}

const ignored: PartSink = { write: () => undefined, end: () => undefined };

function textSink(done: (text: string) => void): PartSink {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return {
    write(chunk) {
      bytes += chunk.byteLength;
      if (bytes > maxFieldBytes) throw new MultipartError('a form field is too long');
      chunks.push(Buffer.from(chunk));
    },
    end: () => done(Buffer.concat(chunks).toString('utf8')),
  };
}

function fileSink(path: string, done: (bytes: number) => void) {
  const out = createWriteStream(path, { mode: 0o600 });
  let bytes = 0;
  let ended = false;
  return {
    async write(chunk) {
      bytes += chunk.byteLength;
      if (!out.write(chunk)) await once(out, 'drain');
    },
    async end() {
      if (ended) return;
      ended = true;
      out.end();
      await finished(out);
      done(bytes);
    },
    /** The read failed: close the file (it is removed next). */
    abort: () => out.destroy(),
  } satisfies PartSink & { abort(): void };
}
