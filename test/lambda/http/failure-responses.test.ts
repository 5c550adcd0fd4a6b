import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyProvider } from '../../../lambda/auth/accepted-keys.js';
import { storeFailure } from '../../../lambda/storage/store-failure.js';
import type { TransactionStore } from '../../../lambda/storage/transaction-store.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { logCapture } from '../../support/log-capture.js';
import { receiverWith } from '../../support/receiver.js';

/** An SDK-shaped failure, as the DynamoDB client throws it. */
function sdkError(name: string, message: string, httpStatusCode: number): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode } });
}

/** A store whose every call fails the way the store turns `error` into a refusal. */
function failingStore(error: Error): TransactionStore {
  return {
    putIfAbsent: async () => {
      throw storeFailure(error);
    },
    keepConflict: async () => {
      throw storeFailure(error);
    },
  };
}

function handlerWith(store: TransactionStore, keys?: KeyProvider) {
  const invoke = receiverWith(store, keys ? { keys } : {});
  return (body: string) => invoke(callbackEvent(body));
}

describe('failures the sender cannot fix by retrying, and failures it can', () => {
  const logs = logCapture();
  beforeAll(() => logs.start());
  afterAll(() => logs.stop());

  it('answers 500 item-rejected, without Retry-After, when DynamoDB refuses the item itself', async () => {
    const secretValue = 'Gizli-Değer-123';
    const invoke = handlerWith(
      failingStore(
        sdkError(
          'ValidationException',
          `Item size has exceeded the maximum allowed size ${secretValue}`,
          400,
        ),
      ),
    );
    const response = await invoke(signed(transaction({ lastName: secretValue })));
    expect(response.statusCode).toBe(500);
    expect(response.headers?.['retry-after']).toBeUndefined();
    expect(JSON.parse(response.body)).toMatchObject({
      type: 'urn:callback-receiver:problem:item-rejected',
      status: 500,
    });
    const line = logs.lines().find((entry) => entry.includes('"outcome":"ItemRejected"'));
    expect(line).toContain('"reason":"item-too-large"');
    expect(line).toContain('"name":"ValidationException"');
    expect(logs.lines().filter((entry) => entry.includes(secretValue))).toEqual([]);
  });

  it.each([
    ['throttling', sdkError('ThrottlingException', 'Rate exceeded', 400)],
    ['a 5xx', sdkError('InternalServerError', 'Internal error', 500)],
    ['a timeout', Object.assign(new Error('timed out'), { name: 'TimeoutError' })],
    ['a refused connection', Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })],
    ['an access error', sdkError('AccessDeniedException', 'denied', 400)],
  ])('answers 503 store-unavailable with Retry-After on %s', async (_name, error) => {
    const response = await handlerWith(failingStore(error))(signed(transaction()));
    expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
    expect(JSON.parse(response.body).type).toBe('urn:callback-receiver:problem:store-unavailable');
  });

  it('answers 503 keys-unavailable with Retry-After when the keys cannot be read', async () => {
    const unreadable: KeyProvider = {
      keys: async () => {
        throw new Error('secret unreadable');
      },
    };
    const response = await handlerWith(
      failingStore(new Error('unused')),
      unreadable,
    )(signed(transaction()));
    expect([response.statusCode, response.headers?.['retry-after']]).toEqual([503, '1']);
    expect(JSON.parse(response.body).type).toBe('urn:callback-receiver:problem:keys-unavailable');
    expect(logs.lines().some((entry) => entry.includes('"outcome":"KeysUnavailable"'))).toBe(true);
  });
});
