import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  receiveFileUpload,
  UploadTooLargeError,
} from '../../../scripts/console/upload/file-upload.js';
import { MultipartError } from '../../../scripts/console/upload/multipart-stream.js';

/** The form as a browser sends it, streamed in small chunks without a Content-Length. */
async function streamedRequest(form: FormData): Promise<Request> {
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 1000)
        controller.enqueue(bytes.slice(at, at + 1000));
      controller.close();
    },
  });
  return new Request('http://localhost/', {
    method: 'POST',
    body,
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
    duplex: 'half',
  } as RequestInit);
}

const report = `reference,amount,currency,type,status\n${'r-1,1000,TRY,Deposit,Confirm\n'.repeat(2000)}`;

describe('receiveFileUpload', () => {
  it('writes the file to disk as sent and keeps the text fields', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'upload-test-')), 'report');
    const form = new FormData();
    form.append('since', '2026-11-25');
    form.append('report', new File([report], 'gateway.csv'));
    form.append('format', 'csv');
    const upload = await receiveFileUpload(await streamedRequest(form), {
      fileField: 'report',
      path,
      maxBytes: 1024 * 1024,
    });
    expect(Object.fromEntries(upload.fields)).toEqual({ since: '2026-11-25', format: 'csv' });
    expect(upload.file).toEqual({ name: 'gateway.csv', path, bytes: Buffer.byteLength(report) });
    expect(await readFile(path, 'utf8')).toBe(report);
  });

  it('has no file when the file input was left empty', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'upload-test-')), 'report');
    const form = new FormData();
    form.append('report', new File([], ''));
    const upload = await receiveFileUpload(await streamedRequest(form), {
      fileField: 'report',
      path,
      maxBytes: 1024,
    });
    expect(upload.file).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });

  it('stops a body over the limit while reading it, and removes what was written', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'upload-test-')), 'report');
    const form = new FormData();
    form.append('report', new File([report], 'gateway.csv'));
    await expect(
      receiveFileUpload(await streamedRequest(form), {
        fileField: 'report',
        path,
        maxBytes: 20_000,
      }),
    ).rejects.toThrow(UploadTooLargeError);
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a body that is not a multipart form', async () => {
    const request = new Request('http://localhost/', { method: 'POST', body: 'report=1' });
    await expect(
      receiveFileUpload(request, { fileField: 'report', path: '/nonexistent/x', maxBytes: 1024 }),
    ).rejects.toThrow(MultipartError);
  });
});
