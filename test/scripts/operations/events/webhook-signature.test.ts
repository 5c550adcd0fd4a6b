import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  newSigningSecret,
  signatureHeaders,
  verifySignature,
} from '../../../../scripts/operations/events/webhook-signature.js';

describe('Standard Webhooks signatures of forwarded events', () => {
  // The test vector published with the Standard Webhooks specification.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const body = '{"test": 2432232314}';
  const at = new Date(1_614_265_330_000);
  const vectorSignature = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

  afterEach(() => {
    vi.useRealTimers();
  });

  it('signs id.timestamp.body as the specification example does', () => {
    expect(signatureHeaders(secret, id, body, at)).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': vectorSignature,
    });
  });

  it("accepts the specification's published headers, among other versions and signatures", () => {
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    const published = { 'webhook-id': id, 'webhook-timestamp': '1614265330' };

    expect(
      verifySignature(secret, { ...published, 'webhook-signature': vectorSignature }, body),
    ).toBe(true);
    const several = `v1a,${vectorSignature.slice(3)} v1,c29tZXRoaW5nIGVsc2U= ${vectorSignature}`;
    expect(verifySignature(secret, { ...published, 'webhook-signature': several }, body)).toBe(
      true,
    );
    expect(verifySignature(secret, { ...published, 'webhook-signature': undefined }, body)).toBe(
      false,
    );
  });

  it('verifies the exact body and refuses a changed body, another secret or a stale timestamp', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    const headers = signatureHeaders(secret, id, body, at);

    expect(verifySignature(secret, headers, body)).toBe(true);
    expect(verifySignature(secret, headers, '{"test":2432232314}')).toBe(false);
    expect(verifySignature(newSigningSecret(), headers, body)).toBe(false);
    vi.setSystemTime(at.getTime() + 301_000);
    expect(verifySignature(secret, headers, body)).toBe(false);
    vi.setSystemTime(at.getTime() - 301_000);
    expect(verifySignature(secret, headers, body)).toBe(false);
  });
  it('takes headers as a request gives them, absent ones undefined, and refuses an unsigned request', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: at });
    const headers = { ...signatureHeaders(secret, id, body, at), 'x-forwarded-for': undefined };

    expect(verifySignature(secret, headers, body)).toBe(true);
    expect(verifySignature(secret, { ...headers, 'webhook-signature': undefined }, body)).toBe(
      false,
    );
  });
  it('a secret that is not base64 is a fault to fix, not a signature to refuse', () => {
    const headers = signatureHeaders(secret, id, body, at);

    expect(() => verifySignature('whsec_***', headers, body)).toThrow(/Base64/);
  });
});
