import { createHash } from 'node:crypto';
import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { maxBodyBytes } from '../../lambda/http/read-body.js';
import type { RefusalRecord } from '../../lambda/refusals/refusal.js';
import { keepRefusalUpdate } from '../../lambda/refusals/refusal-item.js';

/** The reference of the `i`th seeded refusal: `bench-ref-000000`, … */
export const seededReference = (i: number) => `bench-ref-${String(i).padStart(6, '0')}`;

/**
 * A refused body of exactly `bytes` (at least about 160; the receiver's limit, 64 KB, by default):
 * a JSON object with a reference, an invalid amount, a hash (so verify has one to check) and
 * padding that makes each one distinct.
 */
function refusedBody(i: number, bytes: number): Buffer {
  const head = `{"reference":"${seededReference(i)}","amount":"-1","hash":"${'0'.repeat(64)}","padding":"`;
  const tail = '"}';
  const padding = createHash('sha256')
    .update(String(i))
    .digest('hex')
    .repeat(Math.ceil(bytes / 64));
  return Buffer.from(head + padding.slice(0, bytes - head.length - tail.length) + tail);
}

/**
 * Writes `count` kept refusals with the receiver's own write (keepRefusalUpdate: one item per
 * body, as the function keeps it), one second apart in their last delivery, `parallel` at once.
 * The function's per-minute bound is not what is measured here, so the writes go around it.
 */
export async function seedRefusals(
  client: DynamoDBClient,
  tableName: string,
  count: number,
  progress: (done: number) => void,
  bodyBytes: number = maxBodyBytes,
): Promise<{ newest: RefusalRecord; oldest: RefusalRecord }> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const refusal = (i: number): RefusalRecord => {
    const body = refusedBody(i, bodyBytes);
    return {
      digest: createHash('sha256').update(body).digest('hex'),
      body,
      bodyBytes: body.length,
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'bench-gateway/1.0' },
      headersDropped: 0,
      status: 422,
      problem: 'invalid-transaction',
      fieldErrors: [{ field: 'amount', message: 'must be a non-negative decimal' }],
      reference: seededReference(i),
      receivedAt: new Date(start + i * 1000),
      keyId: 'key-bench',
      requestId: `req-${i}`,
      sourceIp: '203.0.113.7',
    };
  };
  const parallel = 8;
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < count; i = next++) {
        await client.send(new UpdateItemCommand(keepRefusalUpdate(tableName, refusal(i), 86_400)));
        if (++done % 1000 === 0) progress(done);
      }
    }),
  );
  return { newest: refusal(count - 1), oldest: refusal(0) };
}
