import { PassThrough } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { exactJson } from '../../../scripts/cli/output/exact-json.js';
import { writeListing } from '../../../scripts/cli/output/listing.js';
import {
  refusalJsonPieces,
  refusalRecord,
  refusalView,
} from '../../../scripts/operations/refusal-listing.js';
import type { KeptRefusal } from '../../../scripts/table/refusal-item.js';

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
