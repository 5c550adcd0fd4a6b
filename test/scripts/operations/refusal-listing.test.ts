import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { exactJson } from '../../../scripts/cli/output/exact-json.js';
import { writeListing } from '../../../scripts/cli/output/listing.js';
import {
  refusalJsonPieces,
  refusalListView,
  refusalRecord,
  refusalView,
  showsBodies,
} from '../../../scripts/operations/refusal-listing.js';
import type { KeptRefusal, RefusalSummary } from '../../../scripts/table/refusal-item.js';

async function asJson(refusals: KeptRefusal[]): Promise<string> {
  const out = new PassThrough();
  const written = text(out);
  await writeListing(refusals.values(), refusalView, { format: 'json' }, {}, out);
  out.end();
  return written;
}

describe('query refused --format json', () => {
  it('gives a body that is not UTF-8 as base64 only', async () => {
    const body = Buffer.from([0x7b, 0xff, 0x7d]);
    const refusal = { digest: 'b'.repeat(64), body } as unknown as KeptRefusal;

    const [shown] = (JSON.parse(await asJson([refusal])) as { items: Record<string, unknown>[] })
      .items;

    expect(shown).not.toHaveProperty('body');
    expect(shown?.bodyBase64).toBe(body.toString('base64'));
  });

  it('writes what would drive a terminal as \\u escapes, which parse back to the same values', async () => {
    const body = '{"reference":"evil\u009b31m\u202etxt"}';
    const refusal: KeptRefusal = {
      digest: 'a'.repeat(64),
      status: 422,
      problem: 'validation-failed',
      reference: 'evil\u009b31m\u202etxt',
      firstReceivedAt: '2026-11-20T10:00:00.000Z',
      lastReceivedAt: '2026-11-20T10:00:00.000Z',
      deliveries: 1,
      bodyBytes: Buffer.byteLength(body),
      bodyKept: 'whole',
      body: Buffer.from(body),
      headers: { 'Content-Type': 'application/json' },
      headersKept: 'whole',
      headersDropped: 0,
      keyId: 'key-1',
      requestId: 'req-1',
      sourceIp: '203.0.113.7',
      expiresAt: '2027-02-18T10:00:00.000Z',
    };

    const json = await asJson([refusal]);

    expect(json).not.toMatch(/[\u009b\u202e]/u);
    expect(json).toContain('evil\\u009b31m\\u202etxt');
    expect(JSON.parse(json)).toEqual({
      items: [{ ...refusal, body, bodyBase64: Buffer.from(body).toString('base64') }],
      summary: { count: 1 },
    });
  });

  it('writes a record in pieces that join to exactly the record as one string', () => {
    const bodies = [
      Buffer.from('{"reference":"r\u202e","amount":"1050.70"}'),
      Buffer.from([0x7b, 0xff, 0x7d]),
      Buffer.alloc(0),
    ];
    for (const body of bodies) {
      // A view into a larger buffer, as the SDK may hand back.
      const pooled = Buffer.concat([Buffer.from('xx'), body, Buffer.from('yy')]);
      const refusal = {
        digest: 'c'.repeat(64),
        reference: 'r\u009b',
        deliveries: 2,
        body: new Uint8Array(pooled.buffer, pooled.byteOffset + 2, body.length),
      } as unknown as KeptRefusal;

      expect([...refusalJsonPieces(refusal)].join('')).toBe(exactJson(refusalRecord(refusal)));
    }
    const bare = { body: Buffer.from('{}') } as unknown as KeptRefusal;
    expect([...refusalJsonPieces(bare)].join('')).toBe(exactJson(refusalRecord(bare)));
  });
});

describe('query refused as a table or CSV, from the index alone', () => {
  const entries: RefusalSummary[] = [
    {
      digest: 'd'.repeat(64),
      lastReceivedAt: '2026-11-20T10:00:00.000Z',
      deliveries: 3,
      status: 413,
      problem: 'payload-too-large',
      bodyBytes: 70000,
      bodyKept: 'part',
    },
    {
      digest: 'e'.repeat(64),
      lastReceivedAt: '2026-11-20T09:00:00.000Z',
      deliveries: 1,
      status: 422,
      problem: 'invalid-transaction',
      reference: 'ref-1',
      bodyBytes: 120,
      bodyKept: 'whole',
    },
  ];
  const written = async (format: 'table' | 'csv' | 'json') => {
    const out = new PassThrough();
    const all = text(out);
    await writeListing(entries.values(), refusalListView, { format }, {}, out);
    out.end();
    return all;
  };

  it('a table says when a body was kept only in part, and leaves the reference blank when there was none', async () => {
    const lines = (await written('table')).split('\n');

    expect(lines[0]).toMatch(
      /^Last received\s+Times\s+Status\s+Problem\s+Reference\s+Bytes\s+Digest/,
    );
    expect(lines[1]).toMatch(/payload-too-large\s+70000 \(part kept\)\s+d{16}$/);
    expect(lines[2]).toMatch(/invalid-transaction\s+ref-1\s+120\s+e{16}$/);
  });

  it('CSV has the index columns only, the digest last, and no body', async () => {
    const [head, first, second] = (await written('csv')).split('\n');

    expect(head).toBe(
      'lastReceivedAt,deliveries,status,problem,reference,bodyBytes,bodyKept,digest',
    );
    expect(first).toBe(
      `2026-11-20T10:00:00.000Z,3,413,payload-too-large,,70000,part,${'d'.repeat(64)}`,
    );
    expect(second).toBe(
      `2026-11-20T09:00:00.000Z,1,422,invalid-transaction,ref-1,120,whole,${'e'.repeat(64)}`,
    );
  });

  it('JSON of the index entry is the entry itself', async () => {
    expect(JSON.parse(await written('json')).items).toEqual(entries);
  });

  it('reads the bodies back only for the formats that show them', () => {
    expect(showsBodies(['json'])).toBe(true);
    expect(showsBodies(['table', 'jsonl'])).toBe(true);
    expect(showsBodies(['table', 'csv', undefined])).toBe(false);
  });
});
