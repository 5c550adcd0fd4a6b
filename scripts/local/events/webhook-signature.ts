import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the sender signs
 * `${id}.${timestamp}.${body}` with HMAC-SHA256 and sends `webhook-id`, `webhook-timestamp`
 * (Unix seconds) and `webhook-signature` (`v1,<base64>`). The secret is `whsec_` + base64 of the
 * key bytes. The verifier ships beside the signer so tests check both without pasted digests.
 */
export const secretPrefix = 'whsec_';

export function newSigningSecret(): string {
  return `${secretPrefix}${randomBytes(24).toString('base64')}`;
}

export type SignatureHeaders = {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};

function keyBytes(secret: string): Buffer {
  if (!secret.startsWith(secretPrefix)) {
    throw new TypeError(`A signing secret starts with ${secretPrefix}`);
  }
  return Buffer.from(secret.slice(secretPrefix.length), 'base64');
}

function signature(secret: string, id: string, timestamp: string, body: string): string {
  return createHmac('sha256', keyBytes(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
}

export function signatureHeaders(
  secret: string,
  id: string,
  body: string,
  now = new Date(),
): SignatureHeaders {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature(secret, id, timestamp, body)}`,
  };
}

/**
 * True when one of the `v1` signatures in the header signs this exact body (the raw text, before
 * any JSON parsing) and the timestamp is within `toleranceSeconds` of now.
 */
export function verifySignature(
  secret: string,
  headers: { readonly [name: string]: string | undefined },
  body: string,
  options: { readonly now?: Date; readonly toleranceSeconds?: number } = {},
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return false;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signature(secret, id, timestamp, body), 'base64');
  return signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || value === undefined) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
