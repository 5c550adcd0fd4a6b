import { describe, expect, it } from 'vitest';
import { computeHash, escapeNonAscii } from '../../../lambda/callback/callback-hash.js';
import {
  callbackBody,
  type GatewayTransaction,
  sampleTransaction,
} from '../../../scripts/gateway/gateway-callback.js';

/** docs/callback-hash.md, Example B. */
const key = '3f1c9a7e52b84d0c9e6a1b2d4c8f7e01';
const exampleB: GatewayTransaction = sampleTransaction();
const exampleBHash = '3e20f227d66c2d34684a1b284f5e909bf8cb2113bea72cf0a83adf6b4c7cf85d';

describe('callbackBody (the simulator signs as the gateway does)', () => {
  it('reproduces the published hash of Example B, escaped on the wire like the hashed text', () => {
    const body = callbackBody(exampleB, key);

    expect(JSON.parse(body).hash).toBe(exampleBHash);
    expect(body).toBe(
      '{"id":1048577,"username":"deniz.kaya","firstName":"\\u00c7a\\u011fr\\u0131",' +
        '"lastName":"\\u00d6zt\\u00fcrk","amount":250075,"currency":"TRY","type":"Withdrawal",' +
        '"status":"Reject","message":"Hesap do\\u011frulanamad\\u0131",' +
        `"reference":"5b0c2f6e-7d4a-4c1b-9a3e-2f8d6b1c0e94","hash":"${exampleBHash}"}`,
    );
  });

  it('sends raw UTF-8 on request, with the same hash', () => {
    const body = callbackBody(exampleB, key, { wire: 'utf8' });

    expect(body).toContain('"firstName":"Çağrı"');
    expect(JSON.parse(body).hash).toBe(exampleBHash);
  });

  it('leaves the hash empty with hashing off', () => {
    expect(JSON.parse(callbackBody(exampleB, key, { hash: false })).hash).toBe('');
  });

  it('writes an id beyond 2^53 digit for digit, and hashes a character beyond U+FFFF as a surrogate pair', () => {
    const transaction = { ...exampleB, id: '9443196296290252502', lastName: '𠮷田' };

    const body = callbackBody(transaction, key);

    expect(body).toContain('"id":9443196296290252502,');
    expect(body).toContain('"lastName":"\\ud842\\udfb7\\u7530"');
    const hashed = body.replace(/"hash":"[0-9a-f]{64}"/, '"hash":""');
    expect(JSON.parse(body).hash).toBe(computeHash(escapeNonAscii(hashed, 'lower'), key));
  });

  it('refuses an id or amount that is not a plain decimal (it would corrupt the JSON text)', () => {
    expect(() => callbackBody({ ...exampleB, amount: '1e3' }, key)).toThrow(/plain decimals/);
    expect(() => callbackBody({ ...exampleB, id: '1,"x":2' }, key)).toThrow(/plain decimals/);
  });
});
