import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../lambda/config/config.js';
import { createReceiver } from '../../lambda/create-receiver.js';
import { stubAwsEnvironment } from '../support/engines.js';
import { callbackEvent, lambdaContext, signed, transaction } from '../support/fixtures.js';
import { MemoryRefusalStore } from '../support/memory-refusal-store.js';
import { MemoryTransactionStore } from '../support/memory-transaction-store.js';

describe('createReceiver', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('reads the keys from the secret the config names, and answers 503 while it cannot', async () => {
    // Prepare: the SDK's own endpoint variable points Secrets Manager at a closed port.
    stubAwsEnvironment();
    vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', 'http://127.0.0.1:1');
    const config = loadConfig({
      TABLE_NAME: 'given-store',
      CALLBACK_API_KEY_SECRET_ID: 'callback/keys',
      SECRETS_MANAGER_MAX_ATTEMPTS: '1',
      SECRETS_MANAGER_TIMEOUT_MS: '500',
    });
    const store = new MemoryTransactionStore();
    const receiver = createReceiver(config, { store, refusals: new MemoryRefusalStore() });

    // Act
    const response = await receiver.handler(callbackEvent(signed(transaction())), lambdaContext());
    receiver.close();

    // Assess: no key could be judged, so nothing is recorded and the gateway retries.
    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body)).toMatchObject({ status: 503 });
  });

  it('stamps deliveries with the clock it is given', async () => {
    const store = new MemoryTransactionStore();
    const receivedAt = new Date('2026-01-02T03:04:05.000Z');
    const config = loadConfig({ TABLE_NAME: 'given-store', CALLBACK_API_KEYS: 'k' });
    const { handler } = createReceiver(config, {
      store,
      refusals: new MemoryRefusalStore(),
      now: () => receivedAt,
    });
    const fields = transaction();

    const response = await handler(
      callbackEvent(signed(fields, 'k'), { headers: { 'x-api-key': 'k' } }),
      lambdaContext(),
    );

    expect(response.statusCode).toBe(204);
    expect(store.records.get(fields.reference as string)?.receivedAt).toBe(
      receivedAt.toISOString(),
    );
  });
});
