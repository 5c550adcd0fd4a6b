import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../lambda/callback/errors.js';
import type { RefusalStore } from '../../../lambda/refusals/refusal.js';
import { callbackEvent } from '../../support/fixtures.js';
import { MemoryRefusalStore } from '../../support/memory-refusal-store.js';
import { MemoryTransactionStore } from '../../support/memory-transaction-store.js';
import { receiverWith } from '../../support/receiver.js';

/** A refusal store whose every write fails with `failure`. */
const refusalsFailingWith = (failure: unknown): RefusalStore => ({
  keep: async () => {
    throw failure;
  },
});

describe('requests at the edges of what API Gateway passes', () => {
  it('answers 401 to a request that carries no headers at all', async () => {
    const event = callbackEvent('{}');
    event.headers = null as unknown as typeof event.headers;

    expect((await receiverWith(new MemoryTransactionStore())(event)).statusCode).toBe(401);
  });

  it('refuses an authenticated request without a body, and keeps it as an empty body', async () => {
    const refusals = new MemoryRefusalStore();

    const response = await receiverWith(new MemoryTransactionStore(), { refusals })(
      callbackEvent(null),
    );

    expect(response.statusCode).toBe(400);
    expect([...refusals.refusals.values()]).toMatchObject([{ status: 400, bodyBytes: 0 }]);
  });
});

describe('a refusal that cannot be kept', () => {
  it.each([
    ['an unexpected error', new Error('socket hang up')],
    ['the store being unavailable', new StoreUnavailableError()],
    ['a thrown value that is not an Error', 'refused'],
  ])('becomes a retryable 503 when keeping fails with %s', async (_name, failure) => {
    const invoke = receiverWith(new MemoryTransactionStore(), {
      refusals: refusalsFailingWith(failure),
    });

    const response = await invoke(callbackEvent('not json'));

    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body)).toMatchObject({ status: 503 });
  });
});
