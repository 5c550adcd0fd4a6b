import { describe, expect, it } from 'vitest';
import {
  callbackBody,
  type GatewayTransaction,
} from '../../../scripts/gateway/gateway-callback.js';
import { startLocalServer } from '../../../scripts/local/server.js';
import { suiteFixture } from '../../support/suite-fixture.js';

/**
 * Local mode hands the function every body base64-encoded, as API Gateway does once the API has
 * `binaryMediaTypes: ['*\/*']`: the function sees the sender's bytes, so its UTF-8 check runs
 * here exactly as deployed.
 */
describe('bodies through local mode reach the function as the sender wrote them', () => {
  const server = suiteFixture(
    () => startLocalServer({ port: 0, dataDir: ':memory:', apiKeys: 'key' }),
    (started) => started.stop(),
  );

  const post = (body: Uint8Array | string) =>
    fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'key' },
      body,
    });

  it('refuses bytes that are not UTF-8 with 400 malformed-json, instead of replacing them', async () => {
    // {"firstName":"Ça"} written in ISO-8859-9: 0xC7 is not UTF-8 on its own.
    const bytes = Buffer.concat([
      Buffer.from('{"firstName":"'),
      Buffer.from([0xc7]),
      Buffer.from('a"}'),
    ]);

    const response = await post(bytes);

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'urn:callback-receiver:problem:malformed-json',
      detail: 'The body is not valid UTF-8.',
    });
  });

  it('records a body sent as raw UTF-8, its hash checked against the same bytes', async () => {
    const transaction: GatewayTransaction = {
      id: '77',
      username: 'deniz.kaya',
      firstName: 'Çağrı',
      lastName: '𠮷田',
      amount: '1050.70',
      currency: 'TRY',
      type: 'Deposit',
      status: 'Confirm',
      message: 'ödeme alındı',
      reference: `exact-bytes-${process.pid}`,
    };

    const response = await post(callbackBody(transaction, 'key', { wire: 'utf8' }));

    expect(response.status).toBe(204);
    expect(response.headers.get('x-callback-outcome')).toBe('recorded');
  });
});
