import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  MultipartError,
  receiveFileUpload,
  UploadTooLargeError,
} from '../../../../scripts/console/upload/file-upload.js';

/** A form encoded as the platform encodes one (undici writes what browsers write). */
async function encoded(form: FormData): Promise<{ bytes: Buffer; type: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    bytes: Buffer.from(await request.arrayBuffer()),
    type: request.headers.get('content-type') ?? '',
  };
}

/** A form whose `report` input holds one file, `content` named `name`, encoded. */
function reportForm(content: string, name: string): Promise<{ bytes: Buffer; type: string }> {
  const form = new FormData();
  form.append('report', new File([content], name));
  return encoded(form);
}

/** Receives the file of the `report` input into `path`, up to `maxBytes` (default 1 MiB). */
function receiveReport(request: Request, path: string, maxBytes = 1 << 20) {
  return receiveFileUpload(request, { fileField: 'report', path, maxBytes });
}

/** The bytes as a request body arriving in chunks of `size` (no Content-Length: chunked). */
function arriving(bytes: Buffer, type: string, size: number): Request {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + size)));
      at += size;
    },
  });
  return new Request('http://localhost/', {
    method: 'POST',
    body,
    headers: { 'content-type': type },
    duplex: 'half',
  } as RequestInit);
}

// Content that looks like a delimiter in part: a CRLF, dashes, the boundary's usual prefix.
const tricky = 'reference,amount\r\n--\r\n-----Web\r\n--x,1\r\n\r\nÇağrı,2\r\n-';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'upload-test-'));
});

describe('receiveFileUpload', () => {
  it('writes the file exactly and keeps the fields, however the body is cut', async () => {
    const form = new FormData();
    form.append('since', '2026-11-25');
    form.append('report', new File([tricky], 'gateway "report".csv'));
    form.append('format', '');
    const { bytes, type } = await encoded(form);
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const path = join(folder, `exact-${size}`);
      const upload = await receiveReport(arriving(bytes, type, size), path);
      expect(readFileSync(path, 'utf8')).toBe(tricky);
      expect(upload.file).toEqual({
        name: 'gateway "report".csv',
        path,
        bytes: Buffer.byteLength(tricky),
      });
      expect(Object.fromEntries(upload.fields)).toEqual({ since: '2026-11-25', format: '' });
    }
  });

  it('has no file when the input was left empty', async () => {
    const { bytes, type } = await reportForm('', '');
    const path = join(folder, 'empty');
    const upload = await receiveReport(arriving(bytes, type, 16), path);
    expect(upload.file).toBeUndefined();
  });

  it('refuses a body that ends before the closing boundary, and removes the file', async () => {
    const { bytes, type } = await reportForm('a,b\n1,2\n'.repeat(50), 'r.csv');
    const path = join(folder, 'cut');
    await expect(
      receiveReport(arriving(bytes.subarray(0, bytes.length - 60), type, 7), path),
    ).rejects.toThrow(MultipartError);
    expect(existsSync(path)).toBe(false);
  });

  it('stops a streamed body over the limit, and removes the file', async () => {
    const { bytes, type } = await reportForm('x'.repeat(10_000), 'big.csv');
    const path = join(folder, 'big');
    await expect(receiveReport(arriving(bytes, type, 512), path, 4096)).rejects.toThrow(
      UploadTooLargeError,
    );
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a body that is not a multipart form', async () => {
    const request = new Request('http://localhost/', {
      method: 'POST',
      body: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await expect(receiveReport(request, join(folder, 'no'), 10)).rejects.toThrow(MultipartError);
  });

  it('refuses a multipart type without a boundary before reading the body', async () => {
    const { bytes } = await reportForm('a,b\n', 'r.csv');
    const path = join(folder, 'no-boundary');

    await expect(
      receiveReport(arriving(bytes, 'multipart/form-data; charset=utf-8', 64), path),
    ).rejects.toThrow(
      expect.objectContaining({
        name: 'MultipartError',
        cause: expect.objectContaining({ message: expect.stringMatching(/boundary/i) }),
      }),
    );
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a body with no content type, writing nothing', async () => {
    const { bytes } = await reportForm('a,b\n', 'r.csv');
    const path = join(folder, 'untyped');
    const request = arriving(bytes, '', 64);
    request.headers.delete('content-type');

    await expect(receiveReport(request, path)).rejects.toThrow(
      'the upload is not a form with a file (multipart/form-data)',
    );
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a declared length over the limit before reading a byte of the body', async () => {
    const { bytes, type } = await reportForm('x'.repeat(10_000), 'big.csv');
    const path = join(folder, 'declared');
    let pulled = false;
    // No high-water mark: the stream is pulled only when someone reads it.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(new Uint8Array(bytes));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request('http://localhost/', {
      method: 'POST',
      body,
      headers: { 'content-type': type, 'content-length': String(bytes.length) },
      duplex: 'half',
    } as RequestInit);

    await expect(receiveReport(request, path, 4096)).rejects.toThrow(UploadTooLargeError);
    expect(pulled).toBe(false);
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a text field over its limit, and removes the file already written', async () => {
    const form = new FormData();
    form.append('report', new File(['a,b\n1,2\n'], 'r.csv'));
    form.append('note', 'n'.repeat(5 * 1024));
    const { bytes, type } = await encoded(form);
    const path = join(folder, 'long-field');

    await expect(receiveReport(arriving(bytes, type, 256), path)).rejects.toThrow(
      'a form field is too long',
    );
    expect(existsSync(path)).toBe(false);
  });
});
