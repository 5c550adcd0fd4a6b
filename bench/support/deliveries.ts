import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { SerializableValue } from '../../lambda/json/json-text.js';
import { signedBody } from '../../scripts/gateway/gateway-signer.js';
import { toApiGatewayEvent } from '../../scripts/local/api-gateway-event.js';

/** The key every receiver in the benchmark accepts (and every body is signed with). */
export const benchKey = 'bench-key-2b7f0c9e41d85a36';

/** A valid transaction in the gateway's member order. */
export function callbackFields(reference: string, sequence = 1): Record<string, SerializableValue> {
  return {
    id: 100_000 + sequence,
    username: 'load.user',
    firstName: 'Çağrı',
    lastName: 'Öztürk',
    amount: 250_075,
    currency: 'TRY',
    type: 'Deposit',
    status: 'Confirm',
    message: '',
    reference,
  };
}

/** Signed callbacks for a load run, each with a reference no other request of the run uses. */
export function callbackSource(runTag: string) {
  let sequence = 0;
  return function next(): { reference: string; body: string } {
    sequence += 1;
    const reference = `load-${runTag}-${sequence}`;
    return { reference, body: signedBody(callbackFields(reference, sequence), benchKey) };
  };
}

let fresh = 0;
const processTag = `${process.pid}-${Date.now().toString(36)}`;

/** A reference no other callback of this process uses. */
export function freshReference(): string {
  fresh += 1;
  return `bench-${processTag}-${fresh}`;
}

export function freshCallback(key = benchKey): string {
  return signedBody(callbackFields(freshReference()), key);
}

let events = 0;

/**
 * A POST /callback as API Gateway hands it to Lambda, built by local mode's own adapter so it
 * carries every field the service fills in: Powertools Parser validates the whole event.
 */
export function apiGatewayEvent(
  body: string,
  options: { apiKey?: string; contentType?: string } = {},
): APIGatewayProxyEvent {
  const headers = {
    Accept: '*/*',
    'Content-Type': options.contentType ?? 'application/json',
    Host: 'abc123.execute-api.eu-west-1.amazonaws.com',
    'User-Agent': 'gateway-callbacks/1.0',
    ...(options.apiKey === undefined ? {} : { 'x-api-key': options.apiKey }),
  };
  return toApiGatewayEvent(
    {
      method: 'POST',
      target: '/callback',
      rawHeaders: Object.entries(headers).flat(),
      body: Buffer.from(body, 'utf8'),
      sourceIp: '203.0.113.7',
      localPort: 443,
      httpVersion: '1.1',
    },
    {
      requestId: `bench-${process.pid}-${++events}`,
      stage: 'prod',
      resource: '/callback',
      receivedAt: new Date(),
    },
  );
}
