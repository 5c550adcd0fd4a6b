import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com) through the specification's own
 * library, so the signature a consumer checks is made by the code its verifier comes from: the
 * sender signs `${id}.${timestamp}.${body}` with HMAC-SHA256 and sends `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64>`). The secret is
 * `whsec_` + base64 of the key bytes. The verifier ships beside the signer so tests check both
 * without pasted digests.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export type SignatureHeaders = {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
};

export function signatureHeaders(
  secret: string,
  id: string,
  body: string,
  now = new Date(),
): SignatureHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, now, body),
  };
}

/**
 * True when one of the `v1` signatures in the header signs this exact body (the raw text, before
 * any JSON parsing) and the timestamp is within the specification's five minutes of the clock.
 */
export function verifySignature(
  secret: string,
  headers: { readonly [name: string]: string | undefined },
  body: string,
): boolean {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) present[name] = value;
  try {
    // The body is only checked, never parsed: a JSON parse would round a large number.
    new Webhook(secret).verify(body, present, { jsonParse: false });
    return true;
  } catch (error) {
    // A refused signature is an answer; anything else (a malformed secret) is a fault.
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}
