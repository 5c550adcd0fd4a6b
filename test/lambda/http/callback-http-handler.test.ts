import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../lambda/callback/errors.js';
import type { TransactionStore } from '../../../lambda/storage/transaction-store.js';
import { callbackEvent, signed, specKey, transaction } from '../../support/fixtures.js';
import { MemoryTransactionStore } from '../../support/memory-transaction-store.js';
import { receiverWith } from '../../support/receiver.js';

/** A store that fails the test if it is ever called. */
const untouchable: TransactionStore = {
  putIfAbsent: async () => {
    throw new Error('the store must not be called');
  },
  keepConflict: async () => {
    throw new Error('the store must not be called');
  },
};

function problem(response: { body: string }) {
  return JSON.parse(response.body) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    errors?: unknown;
  };
}

describe('callback HTTP handler', () => {
  it('answers a new callback 204 recorded, and the same again 204 duplicate', async () => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const body = signed(transaction());
    const first = await invoke(callbackEvent(body));
    const second = await invoke(callbackEvent(body));
    expect([first.statusCode, first.headers?.['x-callback-outcome']]).toEqual([204, 'recorded']);
    expect([second.statusCode, second.headers?.['x-callback-outcome']]).toEqual([204, 'duplicate']);
  });

  it.each([
    ['missing', { 'x-api-key': undefined }],
    ['wrong', { 'x-api-key': 'not-the-key' }],
    ['of the right length but wrong value', { 'x-api-key': specKey.replace(/.$/, '0') }],
  ])('answers 401 to a %s key without parsing or storing anything', async (_name, headers) => {
    const invoke = receiverWith(untouchable);
    const response = await invoke(
      callbackEvent('not even json', { headers: headers as Record<string, string> }),
    );
    expect(response.statusCode).toBe(401);
    expect(problem(response)).toMatchObject({
      status: 401,
      type: 'urn:callback-receiver:problem:unauthorized',
    });
  });

  it('reads the key header in any case and trims surrounding spaces', async () => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const event = callbackEvent(signed(transaction()), {
      headers: { 'x-api-key': undefined as unknown as string, 'X-API-KEY': `  ${specKey} ` },
    });
    expect((await invoke(event)).statusCode).toBe(204);
  });

  it('accepts every configured key during a rotation and salts the hash with the one presented', async () => {
    const invoke = receiverWith(new MemoryTransactionStore(), { keys: ['old-key', 'new-key'] });
    for (const key of ['old-key', 'new-key']) {
      const response = await invoke(
        callbackEvent(signed(transaction(), key), { headers: { 'x-api-key': key } }),
      );
      expect(response.statusCode).toBe(204);
    }
    const mixed = callbackEvent(signed(transaction(), 'old-key'), {
      headers: { 'x-api-key': 'new-key' },
    });
    expect((await invoke(mixed)).statusCode).toBe(403);
  });

  it.each([
    ['text/plain', 415],
    ['application/json; charset=utf-8', 204],
    ['APPLICATION/JSON', 204],
    ['application/vnd.gateway+json', 204],
  ])('answers content type %s with %i', async (contentType, status) => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const event = callbackEvent(signed(transaction()), {
      headers: { 'Content-Type': contentType },
    });
    expect((await invoke(event)).statusCode).toBe(status);
  });

  it('answers 415 when the content type is missing', async () => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const event = callbackEvent(signed(transaction()), {
      headers: { 'Content-Type': undefined as unknown as string },
    });
    expect((await invoke(event)).statusCode).toBe(415);
  });

  it('accepts a body of exactly 64 KiB and answers 413 to one byte more', async () => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const base = signed(transaction({ message: '' }));
    const padded = (size: number) => `${base.slice(0, -1)}${' '.repeat(size - base.length)}}`;
    expect((await invoke(callbackEvent(padded(65_536)))).statusCode).toBe(204);
    expect((await invoke(callbackEvent(padded(65_537)))).statusCode).toBe(413);
  });

  it('decodes a base64 body before anything else', async () => {
    const invoke = receiverWith(new MemoryTransactionStore());
    expect(
      (
        await invoke(
          callbackEvent(signed(transaction(), specKey, { wire: 'utf8' }), { base64: true }),
        )
      ).statusCode,
    ).toBe(204);
  });

  it('answers 400 to bytes that are not UTF-8', async () => {
    const invoke = receiverWith(untouchable);
    const event = callbackEvent(null);
    event.isBase64Encoded = true;
    event.body = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]).toString('base64');
    const response = await invoke(event);
    expect([response.statusCode, problem(response).detail]).toEqual([
      400,
      'The body is not valid UTF-8.',
    ]);
  });

  it.each([
    ['malformed JSON', '{"id":', 400],
    ['an empty body', '', 400],
    ['a JSON array', '[]', 422],
    ['null', 'null', 422],
    ['duplicate members', '{"reference":"a","reference":"b"}', 400],
  ])('answers %s with %i', async (_name, body, status) => {
    const invoke = receiverWith(untouchable);
    expect((await invoke(callbackEvent(body))).statusCode).toBe(status);
  });

  it('answers 422 as problem+json naming every failing field', async () => {
    const invoke = receiverWith(untouchable);
    const response = await invoke(
      callbackEvent(signed(transaction({ type: 'Refund', amount: -1 }))),
    );
    expect(response.headers?.['content-type']).toBe('application/problem+json');
    expect(problem(response)).toMatchObject({
      type: 'urn:callback-receiver:problem:invalid-transaction',
      status: 422,
      errors: [
        { field: 'amount', message: expect.any(String) },
        { field: 'type', message: expect.any(String) },
      ],
    });
  });

  it('answers 409 to other content under a recorded reference', async () => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const fields = transaction();
    await invoke(callbackEvent(signed(fields)));
    const response = await invoke(callbackEvent(signed({ ...fields, amount: 99 })));
    expect([response.statusCode, problem(response).type]).toEqual([
      409,
      'urn:callback-receiver:problem:reference-conflict',
    ]);
  });

  it('answers 503 with Retry-After when the store is unavailable', async () => {
    const unavailable: TransactionStore = {
      putIfAbsent: async () => {
        throw new StoreUnavailableError({ cause: new Error('ProvisionedThroughputExceeded') });
      },
      keepConflict: async () => {},
    };
    const response = await receiverWith(unavailable)(callbackEvent(signed(transaction())));
    expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
    expect(response.body).not.toContain('ProvisionedThroughputExceeded');
  });

  it('answers an unexpected failure 500 with nothing of its cause and no stack trace', async () => {
    const invoke = receiverWith(untouchable);
    const response = await invoke(callbackEvent(signed(transaction())));
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('must not be called');
    expect(response.body).not.toMatch(/at .*\.ts/);
  });
});
