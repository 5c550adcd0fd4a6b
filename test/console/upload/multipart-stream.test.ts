import { describe, expect, it } from 'vitest';
import {
  MultipartError,
  multipartBoundary,
  type PartHead,
  readMultipart,
} from '../../../scripts/console/upload/multipart-stream.js';

/** A form encoded as the platform encodes one (undici writes what browsers write). */
async function encoded(form: FormData): Promise<{ bytes: Buffer; boundary: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const boundary = multipartBoundary(request.headers.get('content-type') ?? '');
  if (boundary === undefined) throw new Error('no boundary');
  return { bytes: Buffer.from(await request.arrayBuffer()), boundary };
}

async function* chunked(bytes: Buffer, sizes: readonly number[]) {
  let at = 0;
  for (let index = 0; at < bytes.length; index++) {
    const size = sizes[index % sizes.length] as number;
    yield new Uint8Array(bytes.subarray(at, at + size));
    at += size;
  }
}

/** Every part's head and its bytes, as the reader handed them over. */
async function parts(body: AsyncIterable<Uint8Array>, boundary: string) {
  const read: { head: PartHead; bytes: Buffer }[] = [];
  await readMultipart(body, boundary, (head) => {
    const chunks: Buffer[] = [];
    return {
      write: (chunk) => {
        chunks.push(Buffer.from(chunk));
      },
      end: () => {
        read.push({ head, bytes: Buffer.concat(chunks) });
      },
    };
  });
  return read.map(({ head, bytes }) => ({ ...head, text: bytes.toString('utf8') }));
}

// Content that looks like a delimiter in part: a CRLF, dashes, the boundary's usual prefix.
const tricky = 'reference,amount\r\n--\r\n-----Web\r\n--x,1\r\n\r\nÇağrı,2\r\n-';

describe('readMultipart', () => {
  it('reads fields and a file exactly, however the body is cut into chunks', async () => {
    const form = new FormData();
    form.append('since', '2026-11-25');
    form.append('report', new File([tricky], 'gateway "report".csv'));
    form.append('format', '');
    const { bytes, boundary } = await encoded(form);
    const expected = [
      { name: 'since', text: '2026-11-25' },
      { name: 'report', filename: 'gateway "report".csv', text: tricky },
      { name: 'format', text: '' },
    ];
    for (let size = 1; size <= bytes.length; size++) {
      expect(await parts(chunked(bytes, [size]), boundary)).toEqual(expected);
    }
    for (let first = 1; first < bytes.length; first++) {
      expect(await parts(chunked(bytes, [first, bytes.length]), boundary)).toEqual(expected);
    }
  });

  it('refuses a body that ends before the closing boundary', async () => {
    const form = new FormData();
    form.append('report', new File(['a,b\n1,2\n'], 'r.csv'));
    const { bytes, boundary } = await encoded(form);
    // Cut in a part, and just before the closing `--` (what follows it is ignorable epilogue).
    for (const cut of [10, bytes.length - 12, bytes.length - 4]) {
      await expect(parts(chunked(bytes.subarray(0, cut), [7]), boundary)).rejects.toThrow(
        MultipartError,
      );
    }
  });

  it('finds the boundary in the Content-Type, quoted or not, and nothing in other types', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----WebKitFormBoundaryA1')).toBe(
      '----WebKitFormBoundaryA1',
    );
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/x-www-form-urlencoded')).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });
});
