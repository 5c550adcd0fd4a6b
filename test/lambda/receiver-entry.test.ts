import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestTable, engineEndpoint, engines } from '../support/engines.js';
import { callbackEvent, signed, specKey, transaction } from '../support/fixtures.js';
import { receiverEntry } from '../support/receiver.js';
import { storedItem } from '../support/stored-items.js';

/** The Lambda entry itself, configured only through the environment, as Lambda runs it. */
describe.each(engines)('lambda/receiver.ts on %s', (engine) => {
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('reads its configuration from the environment and records a callback', async () => {
    const { client, tableName } = await createTestTable(engine);
    const invoke = await receiverEntry({
      TABLE_NAME: tableName,
      CALLBACK_API_KEYS: `rotated-out-key,${specKey}`,
      HASH_MODE: 'required',
      AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint(engine),
    });

    const fields = transaction();
    const response = await invoke(callbackEvent(signed(fields)));

    expect(response.statusCode).toBe(204);
    const item = await storedItem({ client, tableName }, { reference: fields.reference as string });
    expect(item?.hashResult).toEqual({ S: 'verified' });
  });

  it('refuses to start without a table name, naming the variable', async () => {
    vi.stubEnv('TABLE_NAME', '');
    vi.resetModules();
    await expect(import('../../lambda/receiver.js')).rejects.toThrow(/TABLE_NAME/);
  });
});
