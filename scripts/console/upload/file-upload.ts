import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';

/** An upload larger than allowed: a 413, whatever was already written is removed. */
export class UploadTooLargeError extends Error {
  override name = 'UploadTooLargeError';
}

/** A body that is not the multipart form a browser sends: a 400 with this message. */
export class MultipartError extends Error {
  override name = 'MultipartError';
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
const maxFields = 20;

/**
 * Streams a form upload to disk with busboy: the file of `fileField` is written to `path` as it
 * arrives (no copy of it in memory; the platform's `formData()` would buffer it whole), the other
 * fields are kept as text. More than `maxBytes` in all stops the read with UploadTooLargeError; a
 * body that is not a form, MultipartError. Either way the file is removed.
 */
export async function receiveFileUpload(
  request: Request,
  options: { readonly fileField: string; readonly path: string; readonly maxBytes: number },
): Promise<FileUpload> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || request.body === null) {
    throw new MultipartError('the upload is not a form with a file (multipart/form-data)');
  }
  if (Number(request.headers.get('content-length') ?? 0) > options.maxBytes) {
    throw new UploadTooLargeError();
  }
  const fields = new Map<string, string>();
  let file: UploadedFile | undefined;
  const writes: Promise<void>[] = [];
  let form: busboy.Busboy;
  try {
    form = busboy({
      headers: { 'content-type': contentType },
      limits: { files: 1, fields: maxFields, fieldSize: maxFieldBytes },
    });
  } catch (error) {
    throw new MultipartError('the upload is not a form with a file (multipart/form-data)', {
      cause: error,
    });
  }
  form.on('field', (name, value, info) => {
    if (info.valueTruncated) form.destroy(new MultipartError('a form field is too long'));
    else fields.set(name, value);
  });
  form.on('file', (name, stream, info) => {
    // An empty file input sends a part with an empty file name and no bytes.
    if (name !== options.fileField || !info.filename || file !== undefined) {
      stream.resume();
      return;
    }
    const uploaded = { name: browserFileName(info.filename), path: options.path, bytes: 0 };
    file = uploaded;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        uploaded.bytes += chunk.length;
        done(null, chunk);
      },
    });
    writes.push(pipeline(stream, count, createWriteStream(options.path, { mode: 0o600 })));
  });
  try {
    const body = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);
    await pipeline(body, limited(options.maxBytes), form);
    await Promise.all(writes);
    return { fields, ...(file && { file }) };
  } catch (error) {
    await Promise.allSettled(writes);
    await rm(options.path, { force: true });
    if (error instanceof UploadTooLargeError || error instanceof MultipartError) throw error;
    // busboy's own complaints (a truncated body, a bad boundary) are the sender's fault.
    throw new MultipartError(`the upload could not be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Browsers write a file name's `"`, CR and LF as `%22`, `%0D`, `%0A` (the HTML standard's
 * multipart encoding) and leave every other character as it is: only those three are undone.
 */
function browserFileName(name: string): string {
  return name.replace(/%(22|0D|0A)/gi, (encoded) =>
    String.fromCharCode(Number.parseInt(encoded.slice(1), 16)),
  );
}

/** Stops a body (chunked or lying about its length) once it passes `maxBytes`. */
function limited(maxBytes: number): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? new UploadTooLargeError() : null, chunk);
    },
  });
}
