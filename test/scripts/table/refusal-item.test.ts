import { describe, expect, it } from 'vitest';
import { kept, summary } from '../../../scripts/table/refusal-item.js';

const digest = 'ab'.repeat(32);

/** A refusal as the receiver keeps it: a 413 whose body and headers were kept only in part. */
const cutShort = {
  digest: { S: digest },
  listShard: { S: 'a' },
  lastReceivedAt: { S: '2026-11-28T10:05:00.000Z' },
  firstReceivedAt: { S: '2026-11-28T10:00:00.000Z' },
  deliveries: { N: '3' },
  status: { N: '422' },
  problem: { S: 'invalid-transaction' },
  reference: { S: 'ref-7' },
  id: { S: 'gw-7' },
  fieldErrors: { S: JSON.stringify([{ field: 'amount', message: 'must be a number' }]) },
  bodyBytes: { N: '70000' },
  bodyKept: { S: 'part' },
  rawBody: { B: new TextEncoder().encode('{"reference":"ref-7"') },
  headers: { S: JSON.stringify({ 'content-type': 'application/json' }) },
  headersKept: { S: 'part' },
  headersDropped: { N: '4' },
  keyId: { S: 'key-1' },
  requestId: { S: 'req-1' },
  sourceIp: { S: '203.0.113.9' },
  expiresAt: { N: String(Date.parse('2026-12-28T10:05:00.000Z') / 1000) },
};

describe('a kept refusal read back', () => {
  it('the list shows its digest, last delivery, count, status, problem, reference and how much body was kept', () => {
    expect(summary(cutShort)).toEqual({
      digest,
      lastReceivedAt: '2026-11-28T10:05:00.000Z',
      deliveries: 3,
      status: 422,
      problem: 'invalid-transaction',
      reference: 'ref-7',
      bodyBytes: 70000,
      bodyKept: 'part',
    });
  });

  it('read whole, it carries the field errors, the id, the part of the body and headers kept, and its expiry', () => {
    const refusal = kept(cutShort);

    expect(refusal).toMatchObject({
      digest,
      firstReceivedAt: '2026-11-28T10:00:00.000Z',
      fieldErrors: [{ field: 'amount', message: 'must be a number' }],
      id: 'gw-7',
      headers: { 'content-type': 'application/json' },
      headersKept: 'part',
      headersDropped: 4,
      keyId: 'key-1',
      requestId: 'req-1',
      sourceIp: '203.0.113.9',
      expiresAt: '2026-12-28T10:05:00.000Z',
    });
    expect(new TextDecoder().decode(refusal.body)).toBe('{"reference":"ref-7"');
  });

  it('an item written by hand with only its digest reads as whole, empty and undelivered, not as an error', () => {
    const bare = { digest: { S: digest } };

    expect(summary(bare)).toEqual({
      digest,
      lastReceivedAt: '',
      deliveries: 0,
      status: 0,
      problem: '',
      bodyBytes: 0,
      bodyKept: 'whole',
    });
    const refusal = kept(bare);
    expect(refusal).toMatchObject({
      firstReceivedAt: '',
      headers: {},
      headersKept: 'whole',
      headersDropped: 0,
      keyId: '',
      requestId: '',
      sourceIp: '',
      expiresAt: '1970-01-01T00:00:00.000Z',
    });
    expect(refusal.body).toHaveLength(0);
    expect(refusal).not.toHaveProperty('reference');
    expect(refusal).not.toHaveProperty('id');
    expect(refusal).not.toHaveProperty('fieldErrors');
  });

  it('an item without even a digest lists with an empty one', () => {
    expect(summary({}).digest).toBe('');
  });
});
