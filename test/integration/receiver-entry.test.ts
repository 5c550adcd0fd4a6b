import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createTestTable,
  engineEndpoint,
  engines,
  testCredentials,
  testRegion,
} from '../support/engines.js';
import { callbackEvent, lambdaContext, signed, specKey, transaction } from '../support/fixtures.js';

/** The Lambda entry itself, configured only through the environment, as Lambda runs it. */
describe.each(engines)('lambda/receiver.ts on %s', (engine) => {
  afterAll(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('reads its configuration from the environment and records a callback', async () => {
    const { client, tableName } = await createTestTable(engine);
    vi.stubEnv('TABLE_NAME', tableName);
    vi.stubEnv('CALLBACK_API_KEYS', `rotated-out-key,${specKey}`);
    vi.stubEnv('HASH_MODE', 'required');
    vi.stubEnv('AWS_ENDPOINT_URL_DYNAMODB', engineEndpoint(engine));
    vi.stubEnv('AWS_REGION', testRegion);
    vi.stubEnv('AWS_ACCESS_KEY_ID', testCredentials.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', testCredentials.secretAccessKey);
    vi.resetModules();
    const { handler } = await import('../../lambda/receiver.js');

    const fields = transaction();
    const response = await handler(callbackEvent(signed(fields)), lambdaContext);

    expect(response.statusCode).toBe(204);
    const { Item } = await client.send(
      new GetItemCommand({
        TableName: tableName,
        Key: { reference: { S: fields.reference as string } },
      }),
    );
    expect(Item?.hashResult).toEqual({ S: 'verified' });
  });

  it('refuses to start without a table name, naming the variable', async () => {
    vi.stubEnv('TABLE_NAME', '');
    vi.resetModules();
    await expect(import('../../lambda/receiver.js')).rejects.toThrow(/TABLE_NAME/);
  });
});
