import { describe, expect, it } from 'vitest';
import {
  newSigningSecret,
  signatureHeaders,
  verifySignature,
} from '../../../../scripts/local/events/webhook-signature.js';

describe('Standard Webhooks signatures of forwarded events', () => {
  // The test vector published with the Standard Webhooks specification.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const body = '{"test": 2432232314}';
  const at = new Date(1_614_265_330_000);

  it('signs id.timestamp.body as the specification example does', () => {
    expect(signatureHeaders(secret, id, body, at)).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('verifies the exact body and refuses a changed body, another secret or a stale timestamp', () => {
    const headers = signatureHeaders(secret, id, body, at);

    expect(verifySignature(secret, headers, body, { now: at })).toBe(true);
    expect(verifySignature(secret, headers, '{"test":2432232314}', { now: at })).toBe(false);
    expect(verifySignature(newSigningSecret(), headers, body, { now: at })).toBe(false);
    const later = new Date(at.getTime() + 301_000);
    expect(verifySignature(secret, headers, body, { now: later })).toBe(false);
  });
});
